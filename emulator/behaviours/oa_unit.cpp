// `kind: oa-unit`: Intel's OA performance-counter unit (Haswell, Gen8,
// Gen9-11) as i915-perf drives it. yaml/README.md "oa-unit" documents the
// model; in short:
//   - counters follow the workload model (oa_workload.hpp) while the unit is
//     enabled, resumed (Gen8+) and its context filter passes;
//   - timer reports at every timestamp multiple of 2^(exponent+1) ticks,
//     and Gen8+ context-switch reports, go into the ring buffer at the
//     tail; the tail moves at once but a report's first 8 bytes (dwords 0
//     and 1) land report_write_ns later (i915's "tail race"), and a trigger
//     while a report is still landing is lost (REPORT_LOST);
//   - no room (the tail would reach the head): the report is dropped and
//     OABUFFER_OVERFLOW set, or on Haswell with overrun disabled reporting
//     pauses; crossing half full pulses the interrupt output;
//   - the PRM's buffer programming order and a few enable rules are
//     `protocol` violations.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/oa_report.hpp"
#include "regemu/emulator/behaviours/oa_workload.hpp"
#include "regemu/regdb/behaviour_configs/oa_unit.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::OaGeneration;
using regdb::OaUnitConfig;

constexpr uint64_t kNever = ~uint64_t{0};
constexpr uint64_t kAddressMask = 0xFFFFFFC0;

// Register bits, i915's (i915 i915_perf_oa_regs.h, i915_reg.h).
namespace hsw {
constexpr uint64_t kEnable = 1u << 0, kContextFilter = 1u << 1, kTimerEnable = 1u << 5;
constexpr unsigned kFormatShift = 2, kExponentShift = 6;
constexpr uint64_t kContextIdMask = 0xFFFFF000;
constexpr uint64_t kOverrunStatus = 1u << 4, kDisableOverrun = 1u << 3;  // OABUFFER
constexpr unsigned kSizeShift = 3;                                        // OASTATUS1
}  // namespace hsw
namespace gen8 {
constexpr uint64_t kEnable = 1u << 0, kContextFilter = 1u << 1;  // OACONTROL
constexpr unsigned kFormatShift = 2;
constexpr uint64_t kCounterResume = 1u << 0, kTimerEnable = 1u << 1;  // OACTXCONTROL
constexpr unsigned kExponentShift = 2;
constexpr uint64_t kDisableContextSwitchReports = 1u << 1;  // OA_DEBUG
constexpr uint64_t kOverrunStatus = 1u << 3;                // OASTATUS
constexpr unsigned kSizeShift = 3;                          // OABUFFER
constexpr uint64_t kHalfFullMask = 1u << 28;                // OA_IMR
}  // namespace gen8
// Status bits shared by OASTATUS1 (HSW) and OASTATUS (Gen8+).
constexpr uint64_t kReportLost = 1u << 0, kBufferOverflow = 1u << 1, kCounterOverflow = 1u << 2;
constexpr uint64_t kStatusFlags = kReportLost | kBufferOverflow | kCounterOverflow;
// RPT_ID reasons (dword 0 bits 24:19) and the context-valid bit.
constexpr uint32_t kReasonTimer = 1u << 19, kReasonContextSwitch = 1u << 22;

struct Geometry {
  uint64_t base = 0, size = 0, head = 0, tail = 0;
};

// Coverage: what a perf driver's tests should see the unit do: reports of
// each format it knows and for each reason, and the buffer's hard cases
// (the ring wrapping, the half-full interrupt, overflow, a report lost to
// the tail race, a counter wrapping; Haswell's pause with overrun
// disabled). Only what the unit can do is a point.
constexpr uint32_t kNoPoint = ~uint32_t{0};
struct OaPoints {
  uint32_t first_format = 0;  // formats in config order
  uint32_t timer = kNoPoint, context_switch = kNoPoint, mi_rpc = kNoPoint;
  uint32_t wrapped = kNoPoint, half_full = kNoPoint, overflow = kNoPoint, paused = kNoPoint, lost = kNoPoint,
           counter_overflow = kNoPoint;
};

OaPoints MakePoints(const OaUnitConfig& config, std::vector<CoveragePoint>& list) {
  OaPoints points;
  auto add = [&](uint32_t& index, const char* group, const char* name) {
    index = static_cast<uint32_t>(list.size());
    list.push_back({group, name});
  };
  points.first_format = static_cast<uint32_t>(list.size());
  for (const regdb::OaFormat& format : config.formats) list.push_back({"formats", format.name});
  bool haswell = config.generation == OaGeneration::kHaswell;
  add(points.timer, "reasons", "timer");
  if (!haswell) add(points.context_switch, "reasons", "context switch");
  add(points.mi_rpc, "reasons", "MI_REPORT_PERF_COUNT");
  add(points.wrapped, "buffer", "wrapped");
  add(points.half_full, "buffer", "half-full interrupt");
  add(points.overflow, "buffer", "overflow");
  if (haswell) add(points.paused, "buffer", "paused (overrun disabled)");
  if (config.report_write_ns != 0) add(points.lost, "buffer", "report lost");
  add(points.counter_overflow, "buffer", "counter overflow");
  return points;
}

void Cover(BehaviourContext& context, uint32_t point) {
  if (point != kNoPoint) context.Cover(point);
}

// A report whose body is in memory but whose dwords 0 and 1 are not yet.
struct Landing {
  bool active = false;
  uint64_t at_ns = 0;
  uint64_t offset = 0;  // in the memory space
  std::array<uint8_t, 8> first{};
};

class OaUnitBehaviour : public CopyableBehaviour<OaUnitBehaviour> {
 public:
  OaUnitBehaviour(const OaUnitConfig& config, const OaPoints& points)
      : config_(&config), points_(&points), workload_(config), stream_(config) {}

  void OnReset(BehaviourContext& context) override {
    workload_.Reset(context.now_ns());
    context_id_.reset();
    landing_ = {};
    seq_ = head_seq_ = buffer_seq_ = tail_seq_ = 0;
    buffer_programmed_ = overflowing_ = geometry_reported_ = order_broken_ = false;
    stream_.Reset();  // the first report after reset has nothing to compare with
    Reschedule(context);
  }

  void OnClock(BehaviourContext& context, uint64_t /*from_ns*/, uint64_t to_ns) override {
    while (next_event_ns_ <= to_ns) {
      if (landing_.active && landing_.at_ns <= next_trigger_ns_) {
        Land(context);
      } else {
        uint64_t at = next_trigger_ns_;
        next_timestamp_ += period_ticks_;
        next_trigger_ns_ = workload_.TimeOfTimestamp(next_timestamp_);
        UpdateNextEvent();
        Trigger(context, at, kReasonTimer, /*timer=*/true, points_->timer);
      }
    }
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    const auto& r = config_->registers;
    uint64_t now = context.now_ns();
    if (reg == r.head) {
      head_seq_ = ++seq_;
    } else if (reg == r.buffer) {
      CheckBufferOrder(context);
      buffer_seq_ = ++seq_;
      buffer_programmed_ = true;
      overflowing_ = geometry_reported_ = false;
      if (haswell() && (after & kAddressMask) % (16u << 20) != 0) {
        Protocol(context, reg, "the OA buffer must be 16 MiB aligned on Haswell (HSW PRM Observability, OABUFFER); " +
                                   Name(context, reg) + " holds " + regdb::Hex(after & kAddressMask));
      }
    } else if (reg == TailRegister()) {
      CheckTailOrder(context);
      tail_seq_ = ++seq_;
      if (haswell()) KeepStickyFlags(context, before, after);
    }
    if (reg == r.control && (before & EnableBit()) == 0 && (after & EnableBit()) != 0) CheckEnable(context, after);
    if (reg == r.control || reg == r.context_control || reg == r.context_id) {
      workload_.SetCounting(now, Counting(context));
      Reschedule(context);
    }
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb == "oa-load") return InjectLoad(context, args, error);
    if (verb == "gpu-freq") return InjectFrequency(context, args, error);
    if (verb == "mi-rpc") return InjectMiRpc(context, args, error);
    if (verb == "ctx-switch") return InjectContextSwitch(context, args, error);
    return InjectResult::kNotMine;
  }

 private:
  SpaceId Memory() const { return static_cast<SpaceId>(config_->memory); }
  bool haswell() const { return config_->generation == OaGeneration::kHaswell; }
  RegisterId TailRegister() const { return haswell() ? config_->registers.status : config_->registers.tail; }
  uint64_t EnableBit() const { return haswell() ? hsw::kEnable : gen8::kEnable; }
  static const std::string& Name(BehaviourContext& context, RegisterId reg) {
    return context.model().registers()[reg].name;
  }

  void Protocol(BehaviourContext& context, RegisterId reg, std::string rule) {
    context.ReportViolation(ViolationKind::kProtocol, reg, std::move(rule));
  }

  // ------------------------------------------------------------- state

  bool Enabled(BehaviourContext& context) const {
    return (context.Peek(config_->registers.control) & EnableBit()) != 0;
  }

  const regdb::OaFormat* Format(BehaviourContext& context) const {
    uint64_t control = context.Peek(config_->registers.control);
    unsigned shift = haswell() ? hsw::kFormatShift : gen8::kFormatShift;
    return config_->FormatWithCode(static_cast<unsigned>((control >> shift) & 7));
  }

  bool Counting(BehaviourContext& context) const {
    const auto& r = config_->registers;
    uint64_t control = context.Peek(r.control);
    if (!Enabled(context)) return false;
    if (haswell()) {
      if ((control & hsw::kContextFilter) == 0) return true;
      return context_id_ && (*context_id_ & hsw::kContextIdMask) == (control & hsw::kContextIdMask);
    }
    if ((context.Peek(r.context_control) & gen8::kCounterResume) == 0) return false;
    if ((control & gen8::kContextFilter) == 0) return true;
    return context_id_ && *context_id_ == static_cast<uint32_t>(context.Peek(r.context_id));
  }

  // The timer: on, and its period in timestamp ticks.
  std::optional<uint64_t> TimerPeriod(BehaviourContext& context) const {
    if (!Enabled(context)) return std::nullopt;
    uint64_t value = haswell() ? context.Peek(config_->registers.control)
                               : context.Peek(config_->registers.context_control);
    uint64_t enable = haswell() ? hsw::kTimerEnable : gen8::kTimerEnable;
    unsigned shift = haswell() ? hsw::kExponentShift : gen8::kExponentShift;
    if ((value & enable) == 0) return std::nullopt;
    // The period is 2^(exponent+1) ticks. Exponent 63 makes it 2^64, more
    // ticks than the timestamp ever counts: that timer never fires (and
    // 2 << 63 would be a period of 0).
    uint64_t exponent = (value >> shift) & 0x3F;
    if (exponent >= 63) return std::nullopt;
    return uint64_t{2} << exponent;
  }

  void Reschedule(BehaviourContext& context) {
    std::optional<uint64_t> period = TimerPeriod(context);
    if (!period) {
      next_trigger_ns_ = kNever;
    } else {
      // Triggers sit on multiples of the period: TIME_STAMP is not reset at
      // enable, so the first one may come up to a period later (HSW PRM Observability).
      period_ticks_ = *period;
      uint64_t now_ticks = workload_.TimestampAt(context.now_ns());
      next_timestamp_ = (now_ticks / period_ticks_ + 1) * period_ticks_;
      next_trigger_ns_ = workload_.TimeOfTimestamp(next_timestamp_);
    }
    UpdateNextEvent();
  }

  void UpdateNextEvent() {
    next_event_ns_ = std::min(next_trigger_ns_, landing_.active ? landing_.at_ns : kNever);
  }

  Geometry ReadGeometry(BehaviourContext& context) const {
    const auto& r = config_->registers;
    Geometry g;
    uint64_t buffer = context.Peek(r.buffer);
    g.base = buffer & kAddressMask;
    if (r.buffer_upper != regdb::kUnresolved) g.base |= context.Peek(r.buffer_upper) << 32;
    uint64_t size_field = haswell() ? (context.Peek(r.status) >> hsw::kSizeShift) & 7
                                    : (buffer >> gen8::kSizeShift) & 7;
    g.size = uint64_t{128} << 10 << size_field;
    g.head = context.Peek(r.head) & kAddressMask;
    g.tail = context.Peek(TailRegister()) & kAddressMask;
    return g;
  }

  // The buffer lies in the memory space and the pointers in the buffer.
  bool Usable(BehaviourContext& context, const Geometry& g) {
    uint64_t space_size = context.model().spaces()[config_->memory].size;
    std::string why;
    if (g.base + g.size > space_size || g.base + g.size < g.base) {
      why = "the OA buffer [" + regdb::Hex(g.base) + ", +" + regdb::Hex(g.size) + ") does not fit in space '" +
            context.model().spaces()[config_->memory].name + "'";
    } else if (g.tail < g.base || g.tail >= g.base + g.size) {
      why = "the tail pointer " + regdb::Hex(g.tail) + " is outside the OA buffer [" + regdb::Hex(g.base) + ", +" +
            regdb::Hex(g.size) + ")";
    } else if (g.head < g.base || g.head >= g.base + g.size) {
      why = "the head pointer " + regdb::Hex(g.head) + " is outside the OA buffer [" + regdb::Hex(g.base) + ", +" +
            regdb::Hex(g.size) + ")";
    } else {
      return true;
    }
    if (!geometry_reported_) {
      geometry_reported_ = true;
      Protocol(context, config_->registers.buffer, why + ": no report is written until the buffer is programmed again");
    }
    return false;
  }

  void SetStatus(BehaviourContext& context, uint64_t bits) {
    RegisterId status = config_->registers.status;
    context.Poke(status, context.Peek(status) | bits);
  }

  // ----------------------------------------------------------- reports

  uint32_t ReportId(uint32_t reason) const {
    if (haswell() || !context_id_) return reason;
    return reason | (config_->generation == OaGeneration::kGen8 ? 1u << 25 : 1u << 16);
  }

  // `reason_point`: the coverage point of `reason`.
  void Trigger(BehaviourContext& context, uint64_t at_ns, uint32_t reason, bool timer, uint32_t reason_point) {
    if (landing_.active && landing_.at_ns > at_ns) {
      // "requested to write out the counter values before the previous
      // report request was completed": ignored, counting goes on.
      Cover(context, points_->lost);
      SetStatus(context, kReportLost);
      context.EmitRecord(UnitRecordKind::kReportLost, at_ns);
      return;
    }
    if (landing_.active) Land(context);
    const regdb::OaFormat* format = Format(context);
    if (!format) return;  // CheckEnable reported the format
    Geometry g = ReadGeometry(context);
    if (!Usable(context, g)) return;
    uint64_t taken = (g.tail - g.head) & (g.size - 1);
    if (taken + format->size >= g.size) {
      NoRoom(context, at_ns);
      return;
    }
    overflowing_ = false;
    OaReportStream::Report report = stream_.Next(workload_, *format, Header(ReportId(reason)), at_ns);
    WriteRing(context, g, report.bytes, at_ns);
    uint64_t tail = g.base + ((g.tail - g.base + format->size) & (g.size - 1));
    RegisterId tail_reg = TailRegister();
    context.Poke(tail_reg, (context.Peek(tail_reg) & ~kAddressMask) | tail);
    CoverReport(context, *format, reason_point);
    if (g.tail - g.base + format->size >= g.size) Cover(context, points_->wrapped);
    if (timer && taken < g.size / 2 && taken + format->size >= g.size / 2) HalfFull(context);
    if (report.wrapped) {
      Cover(context, points_->counter_overflow);
      SetStatus(context, kCounterOverflow);
    }
    context.EmitRecord(UnitRecordKind::kReport, at_ns, report.bytes);
  }

  void CoverReport(BehaviourContext& context, const regdb::OaFormat& format, uint32_t reason_point) {
    context.Cover(points_->first_format + static_cast<uint32_t>(&format - config_->formats.data()));
    Cover(context, reason_point);
  }

  OaReportHeader Header(uint32_t report_id) const { return {report_id, context_id_.value_or(0xFFFFFFFF)}; }

  // The report at the tail, wrapping at the buffer's end; dwords 0 and 1
  // land later when the unit takes time to write.
  void WriteRing(BehaviourContext& context, const Geometry& g, std::span<const uint8_t> report, uint64_t at_ns) {
    uint64_t offset = g.tail - g.base;
    uint64_t first_part = std::min<uint64_t>(report.size(), g.size - offset);
    size_t held = config_->report_write_ns == 0 ? 0 : 8;
    if (first_part > held) context.WriteMemory(Memory(), g.tail + held, report.subspan(held, first_part - held));
    if (first_part < report.size()) context.WriteMemory(Memory(), g.base, report.subspan(first_part));
    if (held == 0) return;
    landing_.active = true;
    landing_.at_ns = at_ns + config_->report_write_ns;
    landing_.offset = g.tail;
    std::copy_n(report.begin(), 8, landing_.first.begin());
    UpdateNextEvent();
  }

  void Land(BehaviourContext& context) {
    landing_.active = false;
    context.WriteMemory(Memory(), landing_.offset, landing_.first);
    UpdateNextEvent();
  }

  void NoRoom(BehaviourContext& context, uint64_t at_ns) {
    if (haswell() && (context.Peek(config_->registers.buffer) & hsw::kDisableOverrun) != 0) {
      Cover(context, points_->paused);
      return;
    }
    if (overflowing_) return;
    overflowing_ = true;
    Cover(context, points_->overflow);
    SetStatus(context, kBufferOverflow | (haswell() ? 0 : gen8::kOverrunStatus));
    if (haswell()) {
      RegisterId buffer = config_->registers.buffer;
      context.Poke(buffer, context.Peek(buffer) | hsw::kOverrunStatus);
    }
    context.EmitRecord(UnitRecordKind::kBufferLost, at_ns);
  }

  void HalfFull(BehaviourContext& context) {
    RegisterId mask = config_->registers.interrupt_mask;
    if (mask != regdb::kUnresolved && (context.Peek(mask) & gen8::kHalfFullMask) != 0) return;
    Cover(context, points_->half_full);
    context.SetInterrupt(true);  // a pulse: the parent latches the edge
    context.SetInterrupt(false);
  }

  // ---------------------------------------------------------- protocol

  // One mistake in a programming is reported once: the flag holds until a
  // buffer write lands in its place again.
  void CheckBufferOrder(BehaviourContext& context) {
    const auto& r = config_->registers;
    std::string where;
    if (head_seq_ == 0) {
      where = " before " + Name(context, r.head) + " was ever written";
    } else if (tail_seq_ > head_seq_) {
      where = " after " + Name(context, TailRegister()) + " (no " + Name(context, r.head) + " write since)";
    } else {
      order_broken_ = false;
      return;
    }
    if (!order_broken_) Protocol(context, r.buffer, Name(context, r.buffer) + " written" + where + ": " + OrderRule(context));
    order_broken_ = true;
  }

  void CheckTailOrder(BehaviourContext& context) {
    const auto& r = config_->registers;
    if (head_seq_ == 0 || buffer_seq_ > head_seq_ || tail_seq_ > head_seq_ || order_broken_) return;
    Protocol(context, TailRegister(),
             Name(context, TailRegister()) + " written after " + Name(context, r.head) + " with no " +
                 Name(context, r.buffer) + " write between them: " + OrderRule(context));
    order_broken_ = true;
  }

  std::string OrderRule(BehaviourContext& context) const {
    const auto& r = config_->registers;
    return "the PRM requires " + Name(context, r.buffer) + " to be programmed after " + Name(context, r.head) + " and before " +
           Name(context, TailRegister()) + ", for the overflow bit to work (i915 " +
           (haswell() ? "gen7_init_oa_buffer" : "gen8_init_oa_buffer") + ")";
  }

  void CheckEnable(BehaviourContext& context, uint64_t control) {
    RegisterId reg = config_->registers.control;
    unsigned shift = haswell() ? hsw::kFormatShift : gen8::kFormatShift;
    unsigned code = static_cast<unsigned>((control >> shift) & 7);
    if (!config_->FormatWithCode(code)) {
      std::string known;
      for (const regdb::OaFormat& format : config_->formats) {
        known += (known.empty() ? "" : ", ") + format.name + " = " + std::to_string(format.code);
      }
      Protocol(context, reg, "OA enabled with report format " + std::to_string(code) +
                                 ", which this unit does not have (" + known + "): no report is written");
    }
    if (!buffer_programmed_) {
      Protocol(context, reg, "OA enabled before the OA buffer was programmed (" + Name(context, config_->registers.buffer) +
                                 "): program the buffer first, as i915's oa_enable does");
    }
  }

  // Haswell's OASTATUS1 flags cannot be cleared while periodic sampling is
  // on (i915 gen7_oa_read latches REPORT_LOST in software for this reason).
  void KeepStickyFlags(BehaviourContext& context, uint64_t before, uint64_t after) {
    if (!TimerPeriod(context)) return;
    uint64_t cleared = before & ~after & kStatusFlags;
    if (cleared != 0) context.Poke(config_->registers.status, after | cleared);
  }

  // ------------------------------------------------------------ inject

  InjectResult InjectLoad(BehaviourContext& context, std::span<const std::string> args, std::string& error) {
    std::string signals;
    for (size_t i = 1; i < config_->signals.size(); ++i) signals += (i > 1 ? ", " : "") + config_->signals[i].name;
    auto usage = [&](std::string why) {
      error = why + "; usage: inject oa-load SIGNAL VALUE [SIGNAL VALUE ...] with SIGNAL one of " + signals;
      return InjectResult::kBadArguments;
    };
    if (args.empty() || args.size() % 2 != 0) return usage("expected SIGNAL VALUE pairs");
    std::vector<std::pair<unsigned, uint64_t>> changes;
    for (size_t i = 0; i < args.size(); i += 2) {
      unsigned signal = 0;
      for (size_t s = 1; s < config_->signals.size(); ++s) {
        if (config_->signals[s].name == args[i]) signal = static_cast<unsigned>(s);
      }
      if (signal == 0) return usage("unknown signal '" + args[i] + "'");
      auto value = regdb::ParseDecimalMicros(args[i + 1]);
      if (auto* bad = std::get_if<regdb::NumberError>(&value)) return usage(args[i] + ": " + bad->message);
      uint64_t micros = std::get<uint64_t>(value);
      if (config_->signals[signal].fraction && micros > 1'000'000) {
        return usage(args[i] + " is a share of GPU cycles, from 0 to 1; got " + args[i + 1]);
      }
      if (micros > 1'000'000'000) return usage(args[i] + " is at most 1000 events per clock; got " + args[i + 1]);
      changes.emplace_back(signal, micros);
    }
    for (auto [signal, micros] : changes) workload_.SetRateMicros(context.now_ns(), signal, micros);
    return InjectResult::kDone;
  }

  InjectResult InjectFrequency(BehaviourContext& context, std::span<const std::string> args, std::string& error) {
    auto mhz = args.size() == 1 ? regdb::ParseUnsigned(args[0]) : regdb::ParseUnsigned("");
    if (!std::holds_alternative<uint64_t>(mhz) || std::get<uint64_t>(mhz) == 0 ||
        std::get<uint64_t>(mhz) > 10'000) {
      error = "usage: inject gpu-freq MHZ, with MHZ from 1 to 10000";
      return InjectResult::kBadArguments;
    }
    workload_.SetFrequencyMhz(context.now_ns(), std::get<uint64_t>(mhz));
    return InjectResult::kDone;
  }

  InjectResult InjectMiRpc(BehaviourContext& context, std::span<const std::string> args, std::string& error) {
    auto usage = [&](std::string why) {
      error = why + "; usage: inject mi-rpc ADDRESS REPORT_ID (ADDRESS 64-byte aligned in space '" +
              context.model().spaces()[config_->memory].name + "')";
      return InjectResult::kBadArguments;
    };
    if (args.size() != 2) return usage("expected two arguments");
    auto address = regdb::ParseUnsigned(args[0]);
    auto id = regdb::ParseUnsigned(args[1]);
    if (!std::holds_alternative<uint64_t>(address)) return usage("bad address '" + args[0] + "'");
    if (!std::holds_alternative<uint64_t>(id) || std::get<uint64_t>(id) > 0xFFFFFFFF) {
      return usage("bad report id '" + args[1] + "' (32 bits)");
    }
    uint64_t at = std::get<uint64_t>(address);
    if (at % 64 != 0) return usage("address " + regdb::Hex(at) + " is not 64-byte aligned");
    if (!Enabled(context)) {
      Protocol(context, config_->registers.control,
               "MI_REPORT_PERF_COUNT while the OA counters are disabled: the PRM leaves the report undefined "
               "(HSW PRM Observability, OACONTROL bit 0); enable " + Name(context, config_->registers.control) + " first");
      return InjectResult::kDone;
    }
    const regdb::OaFormat* format = Format(context);
    if (!format) return InjectResult::kDone;  // reported when OA was enabled
    uint64_t space_size = context.model().spaces()[config_->memory].size;
    if (at + format->size > space_size) return usage("address " + regdb::Hex(at) + " is past the space's end");
    std::array<uint8_t, 256> report;
    stream_.Snapshot(workload_, *format, Header(static_cast<uint32_t>(std::get<uint64_t>(id))), context.now_ns(),
                     report);
    context.WriteMemory(Memory(), at, std::span<const uint8_t>(report.data(), format->size));
    CoverReport(context, *format, points_->mi_rpc);
    return InjectResult::kDone;
  }

  InjectResult InjectContextSwitch(BehaviourContext& context, std::span<const std::string> args, std::string& error) {
    std::optional<uint32_t> next;
    if (args.size() == 1 && args[0] != "idle") {
      auto id = regdb::ParseUnsigned(args[0]);
      if (!std::holds_alternative<uint64_t>(id) || std::get<uint64_t>(id) >= 0xFFFFFFFF) {
        error = "usage: inject ctx-switch CTX_ID|idle, CTX_ID below 0xFFFFFFFF";
        return InjectResult::kBadArguments;
      }
      next = static_cast<uint32_t>(std::get<uint64_t>(id));
    } else if (args.size() != 1) {
      error = "usage: inject ctx-switch CTX_ID|idle";
      return InjectResult::kBadArguments;
    }
    uint64_t now = context.now_ns();
    context_id_ = next;
    workload_.SetCounting(now, Counting(context));
    // Gen8+ writes a report at a render context switch (reason bit 3)
    // unless OA_DEBUG suppresses them; Haswell has no such report.
    RegisterId debug = config_->registers.debug;
    bool suppressed = debug != regdb::kUnresolved && (context.Peek(debug) & gen8::kDisableContextSwitchReports) != 0;
    if (!haswell() && Enabled(context) && !suppressed) {
      Trigger(context, now, kReasonContextSwitch, false, points_->context_switch);
    }
    return InjectResult::kDone;
  }

 private:
  // Owned by the program, which outlives every device of its model.
  const OaUnitConfig* config_;
  const OaPoints* points_;
  OaWorkload workload_;
  OaReportStream stream_;
  std::optional<uint32_t> context_id_;
  Landing landing_;
  uint64_t period_ticks_ = 2;
  uint64_t next_timestamp_ = 0;
  uint64_t next_trigger_ns_ = kNever;
  uint64_t next_event_ns_ = kNever;
  // Programming order: the sequence number of each pointer register's last write.
  uint64_t seq_ = 0, head_seq_ = 0, buffer_seq_ = 0, tail_seq_ = 0;
  bool buffer_programmed_ = false;
  bool order_broken_ = false;       // an order violation of this programming was reported
  bool overflowing_ = false;        // in a no-room episode (one BUFFER_LOST record each)
  bool geometry_reported_ = false;  // a bad buffer is reported once per programming
};

class OaUnitProgram : public BehaviourProgram {
 public:
  OaUnitProgram(std::string name, const OaUnitConfig& config)
      : BehaviourProgram("oa-unit", std::move(name)), config_(config), points_(MakePoints(config_, point_list_)) {}

  std::vector<RegisterId> WriteHooks() const override {
    std::vector<RegisterId> hooks;
    const auto& r = config_.registers;
    for (RegisterId reg : {r.control, r.context_control, r.context_id, r.status, r.head, r.tail, r.buffer}) {
      if (reg != regdb::kUnresolved) hooks.push_back(reg);
    }
    return hooks;
  }
  std::string InterruptParent() const override { return config_.interrupt_parent; }
  std::vector<CoveragePoint> CoveragePoints() const override { return point_list_; }
  std::vector<InjectForm> InjectForms() const override {
    std::vector<std::string> signals;
    for (size_t s = 1; s < config_.signals.size(); ++s) signals.push_back(config_.signals[s].name);
    return {{"oa-load",
             {InjectArgument::Choice("SIGNAL", signals),
              InjectArgument::Fraction("VALUE", 1000)},
             0, 2, "the workload's rates: a share of GPU cycles (0 to 1) or events per clock (up to 1000)"},
            {"gpu-freq", {InjectArgument::Number("MHZ", 1, 10'000)}, 0, 0,
             "the GPU clock from now on"},
            {"mi-rpc",
             {InjectArgument::Number("ADDRESS"), InjectArgument::Number("REPORT_ID", 0, 0xFFFFFFFF)},
             0, 0, "MI_REPORT_PERF_COUNT: a report written at ADDRESS (64-byte aligned) of the OA memory"},
            {"ctx-switch",
             {InjectArgument::Number("CTX_ID", 0, 0xFFFFFFFE)},
             0, 0, "a context switch to CTX_ID"},
            {"ctx-switch", {InjectArgument::Word("idle")}, 0, 0, "the GPU goes idle: no context runs"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override {
    return std::make_unique<OaUnitBehaviour>(config_, points_);
  }

 private:
  OaUnitConfig config_;
  std::vector<CoveragePoint> point_list_;  // declared before points_, which MakePoints fills it with
  OaPoints points_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileOaUnit(const regdb::BehaviourSpec& spec, const Model&,
                                                std::string& error) {
  const OaUnitConfig* config = ConfigOf<OaUnitConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<OaUnitProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
