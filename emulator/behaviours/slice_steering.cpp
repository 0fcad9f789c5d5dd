// `kind: slice-steering`: registers located in each slice of the GT (ICL PRM
// Vol 13, "Slice Registers and Die Recovery"). A read goes to the slice the
// steering selector names; a slice the fuse register marks absent answers
// 0, and the read is a `protocol` violation: the PRM says such reads "must
// be directed" to a present slice. Writes are multicast to every slice, so
// the one stored value stands for each present slice's copy.
#include <algorithm>
#include <bit>
#include <string>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/slice_steering.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::SliceSteeringConfig;

// Coverage: a driver steering reads must reach each slice it expects to
// be present; one point per slice the fuse field can describe ("slice N",
// point N), hit by a read steered to it while it is present. Reads of a
// fused-off slice are `protocol` violations, counted as such.
unsigned SliceCount(const SliceSteeringConfig& config) {
  return static_cast<unsigned>(std::bit_width(config.fuse_bits.mask >> config.fuse_bits.shift));
}

class SliceSteeringBehaviour : public CopyableBehaviour<SliceSteeringBehaviour> {
 public:
  explicit SliceSteeringBehaviour(const SliceSteeringConfig& config) : config_(&config) {}

  uint64_t AfterRead(BehaviourContext& context, RegisterId reg, uint64_t value) override {
    uint64_t present = config_->fuse_bits.Get(context.Peek(config_->fuse));
    uint64_t slice = config_->selector_bits.Get(context.Peek(config_->selector));
    if (slice < 64 && ((present >> slice) & 1) != 0) {
      if (slice < SliceCount(*config_)) context.Cover(static_cast<uint32_t>(slice));
      return value;
    }
    const RegisterModel& r = context.model().registers()[reg];
    const Model& model = context.model();
    context.ReportViolation(ViolationKind::kProtocol, reg,
                            "slice-located register (" + UnitOf(r.offset) + ") read from slice " +
                                std::to_string(slice) + ", which is fused off (" +
                                model.registers()[config_->fuse].name + " = " +
                                regdb::Hex(context.Peek(config_->fuse)) + "): it reads 0; steer " +
                                model.registers()[config_->selector].name + " to a present slice first");
    return 0;
  }

 private:
  std::string UnitOf(uint64_t offset) const {
    const auto& ranges = config_->ranges;
    auto it = std::find_if(ranges.begin(), ranges.end(), [&](const SliceSteeringConfig::Range& range) {
      return offset >= range.first && offset <= range.last;
    });
    return it == ranges.end() ? std::string("slice unit") : it->unit;
  }

  const SliceSteeringConfig* config_;  // owned by the program, which outlives every device of its model
};

class SliceSteeringProgram : public BehaviourProgram {
 public:
  SliceSteeringProgram(std::string name, const SliceSteeringConfig& config, std::vector<RegisterId> hooked)
      : BehaviourProgram("slice-steering", std::move(name)), config_(config), hooked_(std::move(hooked)) {}
  std::vector<RegisterId> ReadHooks() const override { return hooked_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (unsigned slice = 0; slice < SliceCount(config_); ++slice) {
      points.push_back({"slices read", "slice " + std::to_string(slice)});
    }
    return points;
  }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<SliceSteeringBehaviour>(config_); }

 private:
  SliceSteeringConfig config_;
  std::vector<RegisterId> hooked_;  // the registers inside the ranges
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileSliceSteering(const regdb::BehaviourSpec& spec, const Model& model,
                                                       std::string& error) {
  const SliceSteeringConfig* config = ConfigOf<SliceSteeringConfig>(spec, error);
  if (!config) return nullptr;
  std::vector<RegisterId> hooked;
  const auto& registers = model.registers();
  for (RegisterId id = 0; id < registers.size(); ++id) {
    const RegisterModel& r = registers[id];
    if (r.space != config->space) continue;
    bool inside =
        std::any_of(config->ranges.begin(), config->ranges.end(), [&](const SliceSteeringConfig::Range& range) {
          return r.offset <= range.last && r.offset + r.extent - 1 >= range.first;
        });
    if (inside) hooked.push_back(id);
  }
  return std::make_unique<SliceSteeringProgram>(spec.name, *config, std::move(hooked));
}

}  // namespace regemu::emulator
