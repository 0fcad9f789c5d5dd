#include "regemu/emulator/behaviours/interrupt_rollup.hpp"

#include <algorithm>
#include <bit>

#include "regemu/emulator/behaviours/register_env.hpp"

namespace regemu::emulator {
namespace {

uint64_t Bits(BehaviourContext& context, const regdb::RegisterBits& bits) { return bits.bits.Get(context.Peek(bits.reg)); }

bool SameWidth(const regdb::RegisterBits& a, const regdb::RegisterBits& b) {
  return std::popcount(a.bits.mask) == std::popcount(b.bits.mask);
}

uint32_t LineIndex(std::vector<std::string>& names, const std::string& name) {
  auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end()) {
    names.push_back(name);
    return static_cast<uint32_t>(names.size() - 1);
  }
  return static_cast<uint32_t>(it - names.begin());
}

}  // namespace

InterruptRollup::InterruptRollup(const regdb::InterruptsConfig& config)
    : config_(&config),
      pending_(config.sources.size(), 0),
      pending_bits_(config.sources.size(), 0),
      asserted_(config.outputs.size(), 0) {
  std::vector<std::string> names;
  for (const regdb::InterruptOutput& output : config.outputs) {
    std::vector<uint32_t> lines;
    if (!output.line.empty()) lines.push_back(LineIndex(names, output.line));
    for (const std::string& line : output.lines) lines.push_back(LineIndex(names, line));
    output_lines_.push_back(std::move(lines));
  }
  line_levels_.assign(names.size(), 0);
  line_driven_.assign(names.size(), kUnknown);
}

std::vector<RegisterId> InterruptRollup::Inputs(const regdb::InterruptsConfig& config) {
  std::vector<RegisterId> regs;
  auto add = [&](const regdb::RegisterBits& bits) {
    if (std::find(regs.begin(), regs.end(), bits.reg) == regs.end()) regs.push_back(bits.reg);
  };
  for (const regdb::InterruptSource& source : config.sources) {
    add(source.status);
    if (source.enable) add(*source.enable);
    if (source.mask) add(*source.mask);
    if (source.when) AddOperandRegisters(*source.when, regs);
  }
  for (const regdb::InterruptOutput& output : config.outputs) {
    if (output.route) AddOperandRegisters(*output.route, regs);
  }
  return regs;
}

std::vector<std::string> InterruptRollup::LineNames(const regdb::InterruptsConfig& config) {
  std::vector<std::string> names;
  for (const regdb::InterruptOutput& output : config.outputs) {
    if (!output.line.empty()) LineIndex(names, output.line);
    for (const std::string& line : output.lines) LineIndex(names, line);
  }
  return names;
}

uint64_t InterruptRollup::PendingBits(BehaviourContext& context, const regdb::InterruptSource& source) {
  uint64_t status = Bits(context, source.status);
  if (status == 0) return 0;
  if (source.enable) {
    uint64_t enable = Bits(context, *source.enable);
    status = SameWidth(source.status, *source.enable) ? status & enable : enable != 0 ? status : 0;
  }
  if (source.mask) {
    uint64_t mask = Bits(context, *source.mask);
    status = SameWidth(source.status, *source.mask) ? status & ~mask : mask == 0 ? status : 0;
  }
  if (status != 0 && source.when && source.when->Evaluate(RegisterEnv(context)) == 0) return 0;
  return status;
}

void InterruptRollup::Update(BehaviourContext& context, bool cover_sources) {
  std::vector<uint8_t>& rose = rose_;  // per source: a bit became pending in this update
  rose.assign(config_->sources.size(), 0);
  for (size_t i = 0; i < config_->sources.size(); ++i) {
    uint64_t bits = PendingBits(context, config_->sources[i]);
    bool pending = bits != 0;
    if (cover_sources && pending && pending_[i] == 0) context.Cover(static_cast<uint32_t>(i));
    rose[i] = (bits & ~pending_bits_[i]) != 0 ? 1 : 0;
    pending_[i] = pending ? 1 : 0;
    pending_bits_[i] = bits;
  }
  std::fill(line_levels_.begin(), line_levels_.end(), 0);
  for (size_t o = 0; o < config_->outputs.size(); ++o) {
    const regdb::InterruptOutput& output = config_->outputs[o];
    bool asserted = std::any_of(output.sources.begin(), output.sources.end(),
                                [&](uint32_t s) { return pending_[s] != 0; });
    bool was_asserted = asserted_[o] != 0;
    asserted_[o] = asserted ? 1 : 0;
    const std::vector<uint32_t>& lines = output_lines_[o];
    if (lines.empty()) {
      context.SetInterrupt(asserted);
      bool new_event = std::any_of(output.sources.begin(), output.sources.end(),
                                   [&](uint32_t s) { return rose[s] != 0; });
      if (was_asserted && asserted && new_event) context.InterruptEvent();
    } else if (!asserted) {
      continue;
    } else if (!output.route) {
      line_levels_[lines.front()] = 1;
    } else if (uint64_t route = output.route->Evaluate(RegisterEnv(context)); route < lines.size()) {
      line_levels_[lines[route]] = 1;  // a route past the list drives no line
    }
  }
  for (uint32_t line = 0; line < line_levels_.size(); ++line) {
    if (line_driven_[line] == line_levels_[line]) continue;
    line_driven_[line] = line_levels_[line];
    context.SetLine(line, line_levels_[line] != 0);
  }
}

void InterruptRollup::Clear() {
  std::fill(pending_.begin(), pending_.end(), 0);
  std::fill(pending_bits_.begin(), pending_bits_.end(), 0);
  std::fill(asserted_.begin(), asserted_.end(), 0);
  std::fill(line_driven_.begin(), line_driven_.end(), kUnknown);
}

}  // namespace regemu::emulator
