#pragma once
// A synthetic database of N registers, shaped like real ones: each 32-bit
// register has four fields with docs, policies, resets and an enum.

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

}  // namespace regemu::bench
