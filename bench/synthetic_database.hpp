#pragma once
// A synthetic database of N registers, shaped like real ones: each 32-bit
// register has four fields with docs, policies, resets and an enum. Also a
// variant for the emulator benchmarks with one quarter of each register kind.

#include <cstddef>
#include <cstdint>
#include <string>

namespace regemu::bench {

inline std::string SyntheticDatabaseYaml(size_t register_count) {
  std::string yaml =
      "device: synthetic\n"
      "doc: generated for benchmarks\n"
      "spaces:\n"
      "  - {name: mmio, kind: mmio, size: 0x1000000}\n"
      "registers:\n";
  yaml.reserve(register_count * 420);
  for (size_t i = 0; i < register_count; ++i) {
    std::string n = std::to_string(i);
    yaml += "  - name: REG_" + n + "\n";
    yaml += "    space: mmio\n";
    yaml += "    offset: " + std::to_string(i * 4) + "\n";
    yaml += "    doc: \"synthetic register " + n + "\"\n";
    yaml += "    fields:\n";
    yaml += "      - {name: ENABLE, bits: 0, access: rw, reset: 1, doc: enable}\n";
    yaml += "      - {name: STATUS, bits: \"3:1\", access: w1c, doc: status bits}\n";
    yaml += "      - name: MODE\n";
    yaml += "        bits: \"7:4\"\n";
    yaml += "        values: [{name: OFF, value: 0}, {name: ON, value: 1}]\n";
    yaml += "      - {name: RESERVED, bits: \"31:8\", access: mbz}\n";
  }
  return yaml;
}

// The register kinds of SyntheticEmulatorYaml, each a contiguous quarter of
// the registers, so a benchmark can cycle over many registers of one kind.
enum class SyntheticKind { kPlain, kW1c, kMasked, kRc };
inline constexpr SyntheticKind kSyntheticKinds[] = {SyntheticKind::kPlain, SyntheticKind::kW1c,
                                                    SyntheticKind::kMasked, SyntheticKind::kRc};

// Registers per kind and the offset of kind `kind`'s register `index` in
// SyntheticEmulatorYaml(register_count): 32-bit registers packed at 4 bytes.
inline size_t SyntheticKindCount(size_t register_count) { return register_count / 4; }
inline uint64_t SyntheticOffset(size_t register_count, SyntheticKind kind, size_t index) {
  return (static_cast<uint64_t>(kind) * SyntheticKindCount(register_count) + index) * 4;
}

// A database of `register_count` (a multiple of 4) 32-bit registers in one
// mmio space for the emulator benchmarks, with two to three fields each:
//   PLAIN_n   rw in every bit (the Device's fast path);
//   W1C_n     ENABLE rw, STATUS w1c, the rest mbz;
//   MASKED_n  an Intel masked register (bits 31:16 of a write enable 15:0);
//   RC_n      EVENTS clear on read, CTL rw.
inline std::string SyntheticEmulatorYaml(size_t register_count) {
  std::string yaml =
      "device: synthetic_emulator\n"
      "doc: generated for emulator benchmarks\n"
      "spaces:\n"
      "  - {name: mmio, kind: mmio, size: 0x1000000}\n"
      "registers:\n";
  yaml.reserve(register_count * 200);
  size_t per_kind = SyntheticKindCount(register_count);
  for (SyntheticKind kind : kSyntheticKinds) {
    for (size_t i = 0; i < per_kind; ++i) {
      std::string offset = std::to_string(SyntheticOffset(register_count, kind, i));
      std::string n = std::to_string(i);
      switch (kind) {
        case SyntheticKind::kPlain:
          yaml += "  - name: PLAIN_" + n + "\n    space: mmio\n    offset: " + offset + "\n";
          yaml += "    fields:\n";
          yaml += "      - {name: LO, bits: \"15:0\", access: rw}\n";
          yaml += "      - {name: HI, bits: \"31:16\", access: rw}\n";
          break;
        case SyntheticKind::kW1c:
          yaml += "  - name: W1C_" + n + "\n    space: mmio\n    offset: " + offset + "\n";
          yaml += "    fields:\n";
          yaml += "      - {name: ENABLE, bits: 0, access: rw, reset: 1}\n";
          yaml += "      - {name: STATUS, bits: \"7:1\", access: w1c, reset: 0x7F}\n";
          yaml += "      - {name: RESERVED, bits: \"31:8\", access: mbz}\n";
          break;
        case SyntheticKind::kMasked:
          yaml += "  - name: MASKED_" + n + "\n    space: mmio\n    offset: " + offset + "\n";
          yaml += "    masked: true\n";
          yaml += "    fields:\n";
          yaml += "      - {name: MODE, bits: \"3:0\", access: rw}\n";
          yaml += "      - {name: FLAGS, bits: \"15:4\", access: rw}\n";
          break;
        case SyntheticKind::kRc:
          yaml += "  - name: RC_" + n + "\n    space: mmio\n    offset: " + offset + "\n";
          yaml += "    fields:\n";
          yaml += "      - {name: EVENTS, bits: \"15:0\", access: rc, reset: 0xFFFF}\n";
          yaml += "      - {name: CTL, bits: \"31:16\", access: rw}\n";
          break;
      }
    }
  }
  return yaml;
}

}  // namespace regemu::bench
