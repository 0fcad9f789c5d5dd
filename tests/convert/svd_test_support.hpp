#pragma once
// SVD text in, a loaded and checked database out, all in memory: the
// converter's YAML files are served to the loader as they were written.

#include <map>
#include <string>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/svd_reader.hpp"
#include "tools/convert/svd_yaml_writer.hpp"

namespace regemu::convert::testing {

struct Converted {
  SvdReadResult read;
  std::map<std::string, std::string> files;
  regdb::LoadedDatabase loaded;
  std::string errors;  // the reader's diagnostics, formatted
};

inline Converted ConvertSvd(const std::string& svd, const std::string& name = "test.svd",
                            const SvdLimits& limits = {}) {
  Converted out;
  out.read = ReadSvdText(name, svd, limits);
  out.errors = regdb::FormatDiagnostics(out.read.sources, out.read.diagnostics);
  if (!out.read.device) return out;
  out.files = WriteDatabaseYaml(*out.read.device, name);
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader(out.files);
  out.loaded = regdb::LoadAndCheck("device.yaml", options);
  return out;
}

inline std::string CheckErrors(const Converted& converted) {
  return regdb::FormatDiagnostics(converted.loaded.sources, converted.loaded.diagnostics);
}

inline const regdb::Register* FindRegister(const regdb::Database& db, const std::string& name) {
  for (const regdb::Register& reg : db.registers) {
    if (reg.name == name) return &reg;
  }
  return nullptr;
}

// "" when `a` and `b` are the same, else their first different line (gtest's
// own diff of two megabyte strings would take gigabytes).
inline std::string FirstDifference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] != b[i]) {
      auto line_at = [&](const std::string& s) { return s.substr(start, s.find('\n', start) - start); };
      return "line " + std::to_string(line) + ":\n  " + line_at(a) + "\n  " + line_at(b);
    }
    if (a[i] == '\n') {
      ++line;
      start = i + 1;
    }
  }
  return a.size() == b.size() ? "" : "one text is longer, from line " + std::to_string(line);
}

// A device of one peripheral P at 0x40000000 around `registers`.
inline std::string OnePeripheral(const std::string& registers, const std::string& peripheral_extra = "") {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<device schemaVersion="1.3">
  <name>TEST</name>
  <addressUnitBits>8</addressUnitBits>
  <width>32</width>
  <size>32</size>
  <access>read-write</access>
  <peripherals>
    <peripheral>
      <name>P</name>
      <baseAddress>0x40000000</baseAddress>
)" + peripheral_extra +
         R"(      <registers>
)" + registers +
         R"(      </registers>
    </peripheral>
  </peripherals>
</device>
)";
}

}  // namespace regemu::convert::testing
