// `kind: slice-steering`: registers located in each slice of the GT (seed
// 001, "Slice Registers and Die Recovery"). A read goes to the slice the
// steering selector names; a slice the fuse register marks absent answers
// 0, and the read is a `protocol` violation: the seed says such reads "must
// be directed" to a present slice. Writes are multicast to every slice, so
// the one stored value stands for each present slice's copy.
#include <algorithm>
#include <string>

#include "emulator/behaviour.hpp"
#include "regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

struct SliceRange {
  uint64_t first = 0;
  uint64_t last = 0;
  std::string unit;
};

struct SliceSteeringConfig {
  RegisterId fuse = 0;
  uint64_t fuse_mask = 0;
  unsigned fuse_shift = 0;
  RegisterId selector = 0;
  uint64_t selector_mask = 0;
  unsigned selector_shift = 0;
  std::vector<SliceRange> ranges;  // sorted
  std::vector<RegisterId> hooked;  // the registers inside the ranges
};

class SliceSteeringBehaviour : public Behaviour {
 public:
  explicit SliceSteeringBehaviour(const SliceSteeringConfig& config) : config_(config) {}
  std::unique_ptr<Behaviour> Clone() const override { return std::make_unique<SliceSteeringBehaviour>(*this); }

  uint64_t AfterRead(BehaviourContext& context, RegisterId reg, uint64_t value) override {
    uint64_t present = (context.Peek(config_.fuse) & config_.fuse_mask) >> config_.fuse_shift;
    uint64_t slice = (context.Peek(config_.selector) & config_.selector_mask) >> config_.selector_shift;
    if (slice < 64 && ((present >> slice) & 1) != 0) return value;
    const RegisterModel& r = context.model().registers()[reg];
    const Model& model = context.model();
    context.ReportViolation(
        ViolationKind::kProtocol, reg,
        "slice-located register (" + UnitOf(r.offset) + ") read from slice " + std::to_string(slice) +
            ", which is fused off (" + model.registers()[config_.fuse].name + " = " +
            regdb::Hex(context.Peek(config_.fuse)) + "): it reads 0; steer " + model.registers()[config_.selector].name +
            " to a present slice first");
    return 0;
  }

 private:
  std::string UnitOf(uint64_t offset) const {
    auto it = std::find_if(config_.ranges.begin(), config_.ranges.end(),
                           [&](const SliceRange& range) { return offset >= range.first && offset <= range.last; });
    return it == config_.ranges.end() ? std::string("slice unit") : it->unit;
  }

  SliceSteeringConfig config_;
};

class SliceSteeringProgram : public BehaviourProgram {
 public:
  SliceSteeringProgram(std::string name, SliceSteeringConfig config)
      : BehaviourProgram("slice-steering", std::move(name)), config_(std::move(config)) {}
  std::vector<RegisterId> ReadHooks() const override { return config_.hooked; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<SliceSteeringBehaviour>(config_); }

 private:
  SliceSteeringConfig config_;
};

// The register and field a `key` / `field_key` pair names, as mask and shift.
bool ResolveField(const regdb::BehaviourSpec& spec, const Model& model, std::string_view key,
                  std::string_view field_key, RegisterId& reg, uint64_t& mask, unsigned& shift, std::string& error) {
  const regdb::YamlNode* reg_node = spec.config.Find(key);
  const regdb::YamlNode* field_node = spec.config.Find(field_key);
  if (!reg_node || !field_node) {
    error = "slice-steering needs '" + std::string(key) + "' and '" + std::string(field_key) + "'";
    return false;
  }
  auto found = model.FindRegister(reg_node->text);
  if (!found) {
    error = "unknown register '" + reg_node->text + "'";
    return false;
  }
  reg = *found;
  for (const FieldModel& field : model.registers()[reg].fields) {
    if (field.name == field_node->text) mask = field.mask;
  }
  if (mask == 0) {
    error = "register '" + reg_node->text + "' has no field '" + field_node->text + "'";
    return false;
  }
  shift = 0;
  while (((mask >> shift) & 1) == 0) ++shift;
  return true;
}

}  // namespace

std::unique_ptr<BehaviourProgram> CompileSliceSteering(const regdb::BehaviourSpec& spec, const Model& model,
                                                       std::string& error) {
  // The config was checked by regdb (CheckSliceSteeringConfig); only resolve it.
  SliceSteeringConfig config;
  if (!ResolveField(spec, model, "fuse", "fuse_field", config.fuse, config.fuse_mask, config.fuse_shift, error) ||
      !ResolveField(spec, model, "selector", "selector_field", config.selector, config.selector_mask,
                    config.selector_shift, error)) {
    return nullptr;
  }
  const regdb::YamlNode* space_node = spec.config.Find("space");
  const regdb::YamlNode* ranges = spec.config.Find("ranges");
  auto space = space_node ? model.FindSpace(space_node->text) : std::nullopt;
  if (!space || !ranges) {
    error = "slice-steering needs 'space' and 'ranges'";
    return nullptr;
  }
  for (const regdb::YamlNode& node : ranges->children) {
    const regdb::YamlNode* first = node.Find("first");
    const regdb::YamlNode* last = node.Find("last");
    const regdb::YamlNode* unit = node.Find("unit");
    if (!first || !last || !unit) {
      error = "a slice-located range needs 'first', 'last' and 'unit'";
      return nullptr;
    }
    auto first_value = regdb::ParseUnsigned(first->text);
    auto last_value = regdb::ParseUnsigned(last->text);
    if (!std::holds_alternative<uint64_t>(first_value) || !std::holds_alternative<uint64_t>(last_value)) {
      error = "bad slice-located range bounds";
      return nullptr;
    }
    config.ranges.push_back({std::get<uint64_t>(first_value), std::get<uint64_t>(last_value), unit->text});
  }
  const auto& registers = model.registers();
  for (RegisterId id = 0; id < registers.size(); ++id) {
    const RegisterModel& r = registers[id];
    if (r.space != *space) continue;
    bool inside = std::any_of(config.ranges.begin(), config.ranges.end(), [&](const SliceRange& range) {
      return r.offset <= range.last && r.offset + r.extent - 1 >= range.first;
    });
    if (inside) config.hooked.push_back(id);
  }
  return std::make_unique<SliceSteeringProgram>(spec.name, std::move(config));
}

}  // namespace regemu::emulator
