#include "tools/regemu/capture_options.hpp"

#include <ostream>

#include "tools/traces/capture_tokens.hpp"

namespace regemu::tools {

std::optional<ParsedCaptureOptions> ParseCaptureOptions(const CaptureOptions& options, const std::string& command,
                                                        std::ostream& err) {
  ParsedCaptureOptions parsed;
  if (options.format == "mmiotrace") parsed.format = traces::CaptureFormat::kMmiotrace;
  else if (options.format == "i915") parsed.format = traces::CaptureFormat::kI915RegRw;
  else if (options.format == "log") parsed.format = traces::CaptureFormat::kRegisterLog;
  else if (options.format != "auto") {
    err << "regemu " << command << ": --format " << options.format << ": want auto, mmiotrace, i915 or log\n";
    return std::nullopt;
  }
  for (const std::string& text : options.maps) {
    std::string error;
    auto mapping = traces::ParseMappingOption(text, error);
    if (!mapping) {
      err << "regemu " << command << ": " << error << "\n";
      return std::nullopt;
    }
    parsed.mappings.push_back(*mapping);
  }
  if (!options.device.empty()) {
    size_t colon = options.device.find(':');
    auto vendor = colon == 4 ? traces::ParseHexToken(options.device.substr(0, 4)) : std::nullopt;
    auto device = colon == 4 && options.device.size() == 9 ? traces::ParseHexToken(options.device.substr(5)) : std::nullopt;
    if (!vendor || !device) {
      err << "regemu " << command << ": --device " << options.device << ": want VVVV:DDDD in hex, e.g. 8086:8a52\n";
      return std::nullopt;
    }
    parsed.device = static_cast<uint32_t>(*vendor << 16 | *device);
  }
  return parsed;
}

}  // namespace regemu::tools
