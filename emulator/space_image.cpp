#include "regemu/emulator/space_image.hpp"

#include <algorithm>
#include <ostream>
#include <span>
#include <stdexcept>

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

// WriteSpaceImage's piece: big enough that a 16 MiB BAR is 256 writes.
constexpr uint64_t kPieceBytes = 64 * 1024;
// A window onto a window is followed this deep. The checker refuses a
// window onto its own space, not a longer cycle, which would never end;
// past the limit a window images as what lies beneath it.
constexpr unsigned kMaxWindowDepth = 8;
// The widest register is 8 bytes: one holding an offset starts at most 7 before it.
constexpr uint64_t kMaxRegisterReach = 7;

// The device's register values, copied once so that every piece of an image
// shows the same moment, and each space's registers in offset order.
class ImageSource {
 public:
  explicit ImageSource(const Device& device)
      : device_(device),
        model_(device.model()),
        values_(model_.registers().size()),
        shown_(values_.size(), 0),
        by_offset_(model_.spaces().size()) {
    device.PeekRegisters(values_);
    const std::vector<RegisterModel>& registers = model_.registers();
    for (RegisterId id = 0; id < registers.size(); ++id) by_offset_[registers[id].space].push_back(id);
    for (std::vector<RegisterId>& ids : by_offset_) {
      std::sort(ids.begin(), ids.end(),
                [&](RegisterId a, RegisterId b) { return registers[a].offset < registers[b].offset; });
    }
  }

  // Offsets [first, first + out.size()) of `space` into `out`.
  void Render(SpaceId space_id, uint64_t first, std::span<uint8_t> out, unsigned depth) {
    const SpaceModel& space = model_.spaces()[space_id];
    if (space.kind == regdb::SpaceKind::kMemory) {
      device_.ReadMemory(space_id, first, out);
    } else {
      for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(space.unclaimed >> (8 * ((first + i) % 4)));
    }
    RenderRanges(space, first, out, depth);
    RenderRegisters(space_id, first, out);
  }

  SpaceImageStats Stats(SpaceId space, uint64_t bytes) const {
    SpaceImageStats stats;
    stats.bytes = bytes;
    for (RegisterId id = 0; id < shown_.size(); ++id) {
      if (shown_[id] == 0) continue;
      if (model_.registers()[id].space == space) {
        ++stats.registers;
      } else {
        ++stats.window_registers;
      }
    }
    return stats;
  }

 private:
  void RenderRanges(const SpaceModel& space, uint64_t first, std::span<uint8_t> out, unsigned depth) {
    uint64_t end = first + out.size();
    // Ranges are sorted and disjoint: start at the last one beginning at or before `first`.
    auto range = std::upper_bound(space.ranges.begin(), space.ranges.end(), first,
                                  [](uint64_t offset, const RangeModel& r) { return offset < r.base; });
    if (range != space.ranges.begin()) --range;
    for (; range != space.ranges.end() && range->base < end; ++range) {
      uint64_t lo = std::max(first, range->base);
      uint64_t hi = std::min(end, range->base + range->size);
      if (lo >= hi) continue;
      std::span<uint8_t> part = out.subspan(lo - first, hi - lo);
      if (range->kind == regdb::RangeKind::kReserved) {
        std::fill(part.begin(), part.end(), uint8_t{0});
      } else if (WindowEnabled(*range) && depth < kMaxWindowDepth && !model_.spaces()[range->target_space].indexed) {
        Render(range->target_space, range->TargetOffset(lo), part, depth + 1);
      }
    }
  }

  // Each byte goes to the register the decode table names there, as Peek
  // reads it: of two overlapping (alias_of) registers, one shows; of banked
  // registers, the one a read selects now.
  void RenderRegisters(SpaceId space_id, uint64_t first, std::span<uint8_t> out) {
    const SpaceModel& space = model_.spaces()[space_id];
    const std::vector<RegisterModel>& registers = model_.registers();
    const std::vector<RegisterId>& ids = by_offset_[space_id];
    uint64_t end = first + out.size();
    uint64_t from = first < kMaxRegisterReach ? 0 : first - kMaxRegisterReach;
    auto it = std::lower_bound(ids.begin(), ids.end(), from,
                               [&](RegisterId id, uint64_t offset) { return registers[id].offset < offset; });
    for (; it != ids.end() && registers[*it].offset < end; ++it) {
      const RegisterModel& r = registers[*it];
      for (uint64_t b = 0; b < r.extent; ++b) {
        uint64_t offset = r.offset + b;
        if (offset < first || offset >= end || ShownAt(space, offset) != *it) continue;
        out[offset - first] = static_cast<uint8_t>(values_[*it] >> (8 * b));
        shown_[*it] = 1;
      }
    }
  }

  // The register a read at `offset` reaches (of banked registers, the one selected now).
  RegisterId ShownAt(const SpaceModel& space, uint64_t offset) const {
    RegisterId id = space.decode.Lookup(offset);
    if (id == DecodeTable::kNone || !model_.registers()[id].has(RegisterModel::kBanked)) return id;
    return model_.SelectBank(id, false, values_);
  }

  bool WindowEnabled(const RangeModel& range) const {
    return range.enable_register == DecodeTable::kNone || (values_[range.enable_register] & range.enable_mask) != 0;
  }

  const Device& device_;
  const Model& model_;
  std::vector<uint64_t> values_;
  std::vector<uint8_t> shown_;  // per register: a byte of it is in the image
  std::vector<std::vector<RegisterId>> by_offset_;
};

// The image's size in bytes, or std::invalid_argument with the refusal.
uint64_t ImageBytes(const Model& model, SpaceId space, std::optional<uint64_t> size) {
  std::string refusal = SpaceImageRefusal(model, space, size);
  if (!refusal.empty()) throw std::invalid_argument(refusal);
  return size.value_or(model.spaces()[space].size);
}

}  // namespace

std::string SpaceImageRefusal(const Model& model, SpaceId space_id, std::optional<uint64_t> size) {
  const SpaceModel& space = model.spaces().at(space_id);
  if (space.indexed) {
    return "space '" + space.name + "' is an " + std::string(regdb::SpaceKindName(space.kind)) +
           " space: its registers are numbered, not laid out in bytes, so it has no image";
  }
  uint64_t bytes = size.value_or(space.size);
  if (bytes == 0) return "an image of space '" + space.name + "' must hold at least one byte";
  if (bytes > space.size) {
    return "an image of " + regdb::Hex(bytes) + " bytes runs past the end of space '" + space.name + "' (size " +
           regdb::Hex(space.size) + ")";
  }
  if (bytes > kMaxSpaceImageBytes) {
    return "an image of " + regdb::Hex(bytes) + " bytes of space '" + space.name +
           "' is larger than an image may be (" + regdb::Hex(kMaxSpaceImageBytes) + " bytes); image its start instead";
  }
  return "";
}

std::vector<uint8_t> SpaceImage(const Device& device, SpaceId space, std::optional<uint64_t> size,
                                SpaceImageStats* stats) {
  uint64_t bytes = ImageBytes(device.model(), space, size);
  ImageSource source(device);
  std::vector<uint8_t> image(bytes);
  source.Render(space, 0, image, 0);
  if (stats != nullptr) *stats = source.Stats(space, bytes);
  return image;
}

SpaceImageStats WriteSpaceImage(const Device& device, SpaceId space, std::optional<uint64_t> size, std::ostream& out) {
  uint64_t bytes = ImageBytes(device.model(), space, size);
  ImageSource source(device);
  std::vector<uint8_t> piece(std::min(bytes, kPieceBytes));
  for (uint64_t first = 0; first < bytes && out; first += piece.size()) {
    std::span<uint8_t> part(piece.data(), std::min<uint64_t>(piece.size(), bytes - first));
    source.Render(space, first, part, 0);
    out.write(reinterpret_cast<const char*>(part.data()), static_cast<std::streamsize>(part.size()));
  }
  return source.Stats(space, bytes);
}

}  // namespace regemu::emulator
