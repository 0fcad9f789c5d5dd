#pragma once
// The options every capture-reading command shares (import, replay, diff):
// --format, --map SPACE=BASE, --device VVVV:DDDD.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "tools/traces/capture.hpp"
#include "tools/traces/capture_address_map.hpp"

namespace regemu::tools {

struct CaptureOptions {
  std::string format = "auto";     // auto, mmiotrace, i915, log
  std::vector<std::string> maps;   // SPACE=BASE
  std::string device;              // VVVV:DDDD, "" for any
};

struct ParsedCaptureOptions {
  std::optional<traces::CaptureFormat> format;
  std::vector<traces::ExplicitMapping> mappings;
  std::optional<uint32_t> device;
};

// Errors name the option, after `regemu COMMAND: `.
std::optional<ParsedCaptureOptions> ParseCaptureOptions(const CaptureOptions& options, const std::string& command,
                                                        std::ostream& err);

}  // namespace regemu::tools
