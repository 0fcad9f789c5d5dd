#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

std::string_view SpaceKindName(SpaceKind kind) {
  switch (kind) {
    case SpaceKind::kPciConfig: return "pci-config";
    case SpaceKind::kMmio: return "mmio";
    case SpaceKind::kMsr: return "msr";
    case SpaceKind::kMemory: return "memory";
    case SpaceKind::kState: return "state";
  }
  return "mmio";
}

std::string WidthSet::ToString() const {
  std::string out;
  for (unsigned w : {8u, 16u, 32u, 64u}) {
    if (!Contains(w)) continue;
    if (!out.empty()) out += '/';
    out += std::to_string(w);
  }
  return out;
}

uint64_t Field::mask() const {
  uint64_t ones = bits.width() == 64 ? ~uint64_t{0} : (uint64_t{1} << bits.width()) - 1;
  return ones << bits.lsb;
}

const Field* Register::FindField(std::string_view field_name) const {
  for (const Field& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

std::optional<SpaceIndex> Database::FindSpace(std::string_view name) const {
  auto it = space_by_name_.find(std::string(name));
  if (it == space_by_name_.end()) return std::nullopt;
  return it->second;
}

std::optional<RegisterIndex> Database::FindRegister(std::string_view name) const {
  auto it = register_by_name_.find(ScopedName(name));
  if (it == register_by_name_.end()) return std::nullopt;
  if (instance_scope_) {
    const std::optional<BlockOrigin>& block = registers[it->second].block;
    if (!block || block->block != instance_scope_->block || block->instance != instance_scope_->instance) {
      return std::nullopt;
    }
  }
  return it->second;
}

const Register* Database::RegisterNamed(std::string_view name) const {
  auto index = FindRegister(name);
  return index ? &registers[*index] : nullptr;
}

const Register* Database::DeviceRegisterNamed(std::string_view name) const {
  auto it = register_by_name_.find(std::string(name));
  return it == register_by_name_.end() ? nullptr : &registers[it->second];
}

std::vector<std::string> Database::VisibleRegisterNames() const {
  std::vector<std::string> names;
  for (const Register& reg : registers) {
    if (!instance_scope_) {
      names.push_back(reg.name);
    } else if (reg.block && reg.block->block == instance_scope_->block &&
               reg.block->instance == instance_scope_->instance) {
      names.push_back(reg.block->local_name);
    }
  }
  return names;
}

const LetDefinition* Database::FindLet(std::string_view name) const {
  const LetDefinition* device_let = nullptr;
  for (const LetDefinition& let : lets) {
    if (let.name != name) continue;
    if (!let.instance) {
      device_let = &let;
    } else if (instance_scope_ && let.instance->block == instance_scope_->block &&
               let.instance->instance == instance_scope_->instance) {
      return &let;
    }
  }
  return device_let;
}

std::string Database::ScopedName(std::string_view name) const {
  if (!instance_scope_) return std::string(name);
  return instance_scope_->instance + "_" + std::string(name);
}

std::string Database::ScopedEvent(std::string_view name) const {
  if (!instance_scope_) return std::string(name);
  std::string_view head = name.substr(0, name.find('.'));
  for (const BehaviourSpec& spec : behaviours) {
    if (spec.instance && spec.instance->block == instance_scope_->block &&
        spec.instance->instance == instance_scope_->instance && spec.local_name == head) {
      return ScopedName(name);
    }
  }
  return std::string(name);
}

void Database::IndexNames() {
  space_by_name_.clear();
  register_by_name_.clear();
  for (size_t i = 0; i < spaces.size(); ++i) space_by_name_.emplace(spaces[i].name, static_cast<SpaceIndex>(i));
  for (size_t i = 0; i < registers.size(); ++i) {
    register_by_name_.emplace(registers[i].name, static_cast<RegisterIndex>(i));
  }
}

}  // namespace regemu::regdb
