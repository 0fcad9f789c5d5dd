// `kind: pm4`: an AMD command processor (CP) executing an indirect buffer
// of PM4 type-3 packets from a memory space, as the ROCm profilers
// (aqlprofile) program and read the perf counters
// (ROCm/aqlprofile):
//   inject pm4 SPACE ADDRESS DWORDS
// Packets: SET_UCONFIG_REG and SET_SH_REG (register writes), COPY_DATA
// (register or immediate to memory or register, 32 or 64 bits),
// EVENT_WRITE (PERFCOUNTER_SAMPLE latches the counters; CS_PARTIAL_FLUSH,
// PERFCOUNTER_START/STOP have nothing to wait for or do beyond the
// CP_PERFMON_CNTL writes around them), PRED_EXEC (skips what another XCC
// executes), NOP. The CP's register accesses go through the frontdoor like
// a CPU's (policies, hooks, violations, trace). Any other packet is an
// `unmodelled` violation at its address in memory, and is skipped.
#include <cstdint>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/pm4.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::Pm4Config;

// PM4 opcodes (Linux amdgpu soc15d.h / aqlprofile's copy).
constexpr uint32_t kNop = 0x10;
constexpr uint32_t kPredExec = 0x23;
constexpr uint32_t kCopyData = 0x40;
constexpr uint32_t kEventWrite = 0x46;
constexpr uint32_t kSetShReg = 0x76;
constexpr uint32_t kSetUconfigReg = 0x79;

// EVENT_WRITE event types (vega10_enum.h EVENT_TYPE).
constexpr uint32_t kCsPartialFlush = 0x07;
constexpr uint32_t kPerfcounterStart = 0x17;
constexpr uint32_t kPerfcounterStop = 0x18;
constexpr uint32_t kPerfcounterSample = 0x1B;

// COPY_DATA selects.
constexpr uint32_t kSelRegister = 0;
constexpr uint32_t kSelMemory = 1;
constexpr uint32_t kSelTcL2 = 2;
constexpr uint32_t kSelPerfcounters = 4;
constexpr uint32_t kSelImmediate = 5;  // as a source: the data is in the packet
constexpr uint32_t kSelMemoryDst = 5;  // as a destination: memory (aqlprofile's DST_SEL 5)

constexpr uint64_t kMaxDwords = uint64_t{1} << 20;

// Coverage: the packets a profiler's command buffers should have run
// through the CP, each modelled EVENT_WRITE event, and PRED_EXEC skipping
// another XCC's packets. Indices, in CoveragePoints() order:
enum Pm4Point : uint32_t {
  kSetUconfigRegRan, kSetShRegRan, kCopyDataRan, kEventWriteRan, kPredExecRan, kNopRan,
  kStartEvent, kStopEvent, kSampleEvent, kFlushEvent, kPredicatedSkip,
};

class Pm4Behaviour : public CopyableBehaviour<Pm4Behaviour> {
 public:
  explicit Pm4Behaviour(const Pm4Config& config)
      : config_(&config), registers_(static_cast<SpaceId>(config.registers)) {}

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != "pm4") return InjectResult::kNotMine;
    constexpr std::string_view kUsage = "usage: inject pm4 SPACE ADDRESS DWORDS";
    if (args.size() != 3) {
      error = "expected a memory space, an address and a dword count; " + std::string(kUsage);
      return InjectResult::kBadArguments;
    }
    std::optional<SpaceId> space = context.model().FindSpace(args[0]);
    if (!space || context.model().spaces()[*space].kind != regdb::SpaceKind::kMemory) {
      error = "'" + args[0] + "' is not a memory space of the device; " + std::string(kUsage);
      return InjectResult::kBadArguments;
    }
    auto address = regdb::ParseUnsigned(args[1]);
    auto dwords = regdb::ParseUnsigned(args[2]);
    if (!std::holds_alternative<uint64_t>(address) || std::get<uint64_t>(address) % 4 != 0) {
      error = "bad address '" + args[1] + "' (a multiple of 4); " + std::string(kUsage);
      return InjectResult::kBadArguments;
    }
    if (!std::holds_alternative<uint64_t>(dwords) || std::get<uint64_t>(dwords) == 0 ||
        std::get<uint64_t>(dwords) > kMaxDwords) {
      error = "bad dword count '" + args[2] + "' (1.." + std::to_string(kMaxDwords) + "); " + std::string(kUsage);
      return InjectResult::kBadArguments;
    }
    uint64_t base = std::get<uint64_t>(address);
    uint64_t count = std::get<uint64_t>(dwords);
    const uint64_t size = context.model().spaces()[*space].size;
    if (base >= size || count * 4 > size - base) {
      error = "the buffer " + regdb::Hex(base) + " + " + std::to_string(count) + " dwords is outside " + args[0];
      return InjectResult::kBadArguments;
    }
    std::vector<uint8_t> bytes(count * 4);
    context.ReadMemory(*space, base, bytes);
    std::vector<uint32_t> buffer(count);
    for (size_t i = 0; i < count; ++i) {
      buffer[i] = uint32_t{bytes[4 * i]} | uint32_t{bytes[4 * i + 1]} << 8 | uint32_t{bytes[4 * i + 2]} << 16 |
                  uint32_t{bytes[4 * i + 3]} << 24;
    }
    Execute(context, *space, base, buffer);
    return InjectResult::kDone;
  }

 private:
  void Execute(BehaviourContext& context, SpaceId memory, uint64_t base, const std::vector<uint32_t>& ib) {
    size_t i = 0;
    while (i < ib.size()) {
      uint64_t at = base + 4 * i;
      uint32_t header = ib[i];
      uint32_t type = header >> 30;
      if (type == 2) {  // a one-dword filler
        ++i;
        continue;
      }
      if (type != 3) {
        Unmodelled(context, memory, at, "a type-" + std::to_string(type) + " packet header " + regdb::Hex(header) +
                                            ": only type-3 packets (and type-2 fillers) are modelled; the rest of the "
                                            "buffer is not executed");
        return;
      }
      uint32_t opcode = (header >> 8) & 0xFF;
      size_t body_size = ((header >> 16) & 0x3FFF) + 1;
      if (i + 1 + body_size > ib.size()) {
        Unmodelled(context, memory, at, "packet " + regdb::Hex(opcode) + " needs " + std::to_string(body_size) +
                                            " dwords after its header, past the end of the buffer");
        return;
      }
      std::span<const uint32_t> body(ib.data() + i + 1, body_size);
      i += 1 + body_size;
      switch (opcode) {
        case kSetUconfigReg:
          context.Cover(kSetUconfigRegRan);
          SetRegisters(context, config_->uconfig_base, body);
          break;
        case kSetShReg:
          context.Cover(kSetShRegRan);
          SetRegisters(context, config_->sh_base, body);
          break;
        case kCopyData:
          context.Cover(kCopyDataRan);
          CopyData(context, memory, at, body);
          break;
        case kEventWrite:
          context.Cover(kEventWriteRan);
          EventWrite(context, memory, at, body);
          break;
        case kPredExec: {
          context.Cover(kPredExecRan);
          uint32_t exec_count = body[0] & 0x3FFF;
          uint32_t xcc_mask = body[0] >> 24;
          if ((xcc_mask >> config_->xcc & 1) == 0) {  // another XCC's packets
            context.Cover(kPredicatedSkip);
            i += exec_count;
          }
          break;
        }
        case kNop: context.Cover(kNopRan); break;
        default:
          Unmodelled(context, memory, at,
                     "PM4 opcode " + regdb::Hex(opcode) + " is not modelled (SET_UCONFIG_REG, SET_SH_REG, COPY_DATA, "
                                                          "EVENT_WRITE, PRED_EXEC and NOP are); skipped");
      }
    }
  }

  // SET_*_REG: consecutive registers from offset body[0] (dwords from `first`).
  void SetRegisters(BehaviourContext& context, uint64_t first, std::span<const uint32_t> body) {
    uint64_t dword = first + body[0];
    for (size_t j = 1; j < body.size(); ++j) context.Write(registers_, (dword + j - 1) * 4, 32, body[j]);
  }

  void CopyData(BehaviourContext& context, SpaceId memory, uint64_t at, std::span<const uint32_t> body) {
    if (body.size() < 5) {
      Unmodelled(context, memory, at, "COPY_DATA with " + std::to_string(body.size()) + " dwords (5 expected)");
      return;
    }
    uint32_t control = body[0];
    uint32_t src_sel = control & 0xF;
    uint32_t dst_sel = (control >> 8) & 0xF;
    bool wide = ((control >> 16) & 1) != 0;  // COUNT_SEL: 64 bits
    uint64_t src = body[1] | uint64_t{body[2]} << 32;
    uint64_t dst = body[3] | uint64_t{body[4]} << 32;
    uint64_t value = 0;
    if (src_sel == kSelRegister || src_sel == kSelPerfcounters) {
      // A register's dword address; 64 bits: it and the next.
      value = context.Read(registers_, (src & 0x3FFFF) * 4, 32);
      if (wide) value |= context.Read(registers_, ((src & 0x3FFFF) + 1) * 4, 32) << 32;
    } else if (src_sel == kSelImmediate) {
      value = wide ? src : body[1];
    } else {
      Unmodelled(context, memory, at, "COPY_DATA source select " + std::to_string(src_sel) +
                                          " (register 0, perfcounters 4 and immediate 5 are modelled)");
      return;
    }
    if (dst_sel == kSelMemoryDst || dst_sel == kSelTcL2 || dst_sel == kSelMemory) {
      std::vector<uint8_t> bytes(wide ? 8 : 4);
      for (size_t b = 0; b < bytes.size(); ++b) bytes[b] = static_cast<uint8_t>(value >> (8 * b));
      const uint64_t size = context.model().spaces()[memory].size;
      if (dst % 4 != 0 || dst >= size || bytes.size() > size - dst) {
        Unmodelled(context, memory, at, "COPY_DATA destination " + regdb::Hex(dst) + " is not a dword inside " +
                                            context.model().spaces()[memory].name);
        return;
      }
      context.WriteMemory(memory, dst, bytes);
    } else if (dst_sel == kSelRegister) {
      context.Write(registers_, (dst & 0x3FFFF) * 4, 32, value & 0xFFFF'FFFF);
      if (wide) context.Write(registers_, ((dst & 0x3FFFF) + 1) * 4, 32, value >> 32);
    } else {
      Unmodelled(context, memory, at, "COPY_DATA destination select " + std::to_string(dst_sel) +
                                          " (register 0 and memory 1, 2, 5 are modelled)");
    }
  }

  void EventWrite(BehaviourContext& context, SpaceId memory, uint64_t at, std::span<const uint32_t> body) {
    uint32_t event = body[0] & 0x3F;
    switch (event) {
      case kCsPartialFlush: context.Cover(kFlushEvent); return;
      case kPerfcounterStart: context.Cover(kStartEvent); return;
      case kPerfcounterStop: context.Cover(kStopEvent); return;
      case kPerfcounterSample:
        if (config_->sample_register != Pm4Config::kNone) {
          context.Cover(kSampleEvent);
          const RegisterModel& r = context.model().registers()[config_->sample_register];
          uint64_t value = context.Read(r.space, r.offset, r.width) | config_->sample.mask;
          context.Write(r.space, r.offset, r.width, value);
          return;
        }
        break;
      default: break;
    }
    Unmodelled(context, memory, at, "EVENT_WRITE event type " + regdb::Hex(event) + " is not modelled; skipped");
  }

  void Unmodelled(BehaviourContext& context, SpaceId memory, uint64_t at, const std::string& what) {
    context.ReportViolationAt(ViolationKind::kUnmodelled, memory, at, "PM4 at " + regdb::Hex(at) + ": " + what);
  }

  const Pm4Config* config_;  // owned by the program, which outlives every device of its model
  SpaceId registers_;        // config_->registers (the model's space ids are the database's)
};

class Pm4Program : public BehaviourProgram {
 public:
  Pm4Program(std::string name, const Pm4Config& config) : BehaviourProgram("pm4", std::move(name)), config_(config) {}
  std::vector<CoveragePoint> CoveragePoints() const override {
    return {{"packets", "SET_UCONFIG_REG"},         {"packets", "SET_SH_REG"},
            {"packets", "COPY_DATA"},               {"packets", "EVENT_WRITE"},
            {"packets", "PRED_EXEC"},               {"packets", "NOP"},
            {"events", "PERFCOUNTER_START"},        {"events", "PERFCOUNTER_STOP"},
            {"events", "PERFCOUNTER_SAMPLE"},       {"events", "CS_PARTIAL_FLUSH"},
            {"predication", "another XCC's packets skipped"}};
  }
  std::vector<InjectForm> InjectForms() const override {
    return {{"pm4",
             {InjectArgument::Choice("SPACE", {}),
              InjectArgument::Number("ADDRESS"),
              InjectArgument::Number("DWORDS", 1, kMaxDwords)},
             0, 0, "runs the PM4 packets of DWORDS dwords at ADDRESS of memory space SPACE, as the CP would"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<Pm4Behaviour>(config_); }

 private:
  Pm4Config config_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompilePm4(const regdb::BehaviourSpec& spec, const Model&, std::string& error) {
  const Pm4Config* config = ConfigOf<Pm4Config>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<Pm4Program>(spec.name, *config);
}

}  // namespace regemu::emulator
