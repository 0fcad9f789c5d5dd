#include "regemu/emulator/behaviours/interrupt_rollup.hpp"

#include <algorithm>
#include <bit>

namespace regemu::emulator {
namespace {

uint64_t Bits(BehaviourContext& context, const regdb::RegisterBits& bits) { return bits.bits.Get(context.Peek(bits.reg)); }

bool SameWidth(const regdb::RegisterBits& a, const regdb::RegisterBits& b) {
  return std::popcount(a.bits.mask) == std::popcount(b.bits.mask);
}

}  // namespace

std::vector<RegisterId> InterruptRollup::Inputs(const regdb::InterruptsConfig& config) {
  std::vector<RegisterId> regs;
  auto add = [&](const regdb::RegisterBits& bits) {
    if (std::find(regs.begin(), regs.end(), bits.reg) == regs.end()) regs.push_back(bits.reg);
  };
  for (const regdb::InterruptSource& source : config.sources) {
    add(source.status);
    if (source.enable) add(*source.enable);
    if (source.mask) add(*source.mask);
  }
  return regs;
}

bool InterruptRollup::Pending(BehaviourContext& context, const regdb::InterruptSource& source) {
  uint64_t status = Bits(context, source.status);
  if (source.enable) {
    uint64_t enable = Bits(context, *source.enable);
    status = SameWidth(source.status, *source.enable) ? status & enable : enable != 0 ? status : 0;
  }
  if (source.mask) {
    uint64_t mask = Bits(context, *source.mask);
    status = SameWidth(source.status, *source.mask) ? status & ~mask : mask == 0 ? status : 0;
  }
  return status != 0;
}

void InterruptRollup::Update(BehaviourContext& context, bool cover_sources) {
  for (size_t i = 0; i < config_->sources.size(); ++i) {
    bool pending = Pending(context, config_->sources[i]);
    if (cover_sources && pending && pending_[i] == 0) context.Cover(static_cast<uint32_t>(i));
    pending_[i] = pending ? 1 : 0;
  }
  uint32_t line = 0;
  for (size_t o = 0; o < config_->outputs.size(); ++o) {
    const regdb::InterruptOutput& output = config_->outputs[o];
    bool asserted = std::any_of(output.sources.begin(), output.sources.end(),
                                [&](uint32_t s) { return pending_[s] != 0; });
    asserted_[o] = asserted ? 1 : 0;
    if (output.line.empty()) {
      context.SetInterrupt(asserted);
    } else {
      context.SetLine(line++, asserted);
    }
  }
}

void InterruptRollup::Clear() {
  std::fill(pending_.begin(), pending_.end(), 0);
  std::fill(asserted_.begin(), asserted_.end(), 0);
}

}  // namespace regemu::emulator
