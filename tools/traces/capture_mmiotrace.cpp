// Linux mmiotrace's text (format 20070824), record by record as
// kernel/trace/trace_mmiotrace.c prints it (format table: Documentation/trace/mmiotrace.rst).
#include <string>

#include "tools/traces/capture.hpp"
#include "tools/traces/capture_tokens.hpp"

namespace regemu::traces {
namespace {

bool Fail(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

bool ParseTime(std::string_view token, CaptureRecord& record, std::string& error) {
  auto ns = ParseTimestampNs(token);
  if (!ns) return Fail(error, "bad timestamp '" + std::string(token) + "' (want SECONDS.MICROSECONDS)");
  record.time_ns = *ns;
  record.has_time = true;
  return true;
}

bool ParseMapId(std::string_view token, CaptureRecord& record, std::string& error) {
  auto id = ParseDecimalToken(token);
  if (!id || *id > 0xffffffffu) return Fail(error, "bad map id '" + std::string(token) + "'");
  record.map_id = static_cast<uint32_t>(*id);
  return true;
}

bool ParseAddress(std::string_view token, uint64_t& out, std::string_view what, std::string& error) {
  auto value = ParsePrefixedHex(token);
  if (!value) return Fail(error, "bad " + std::string(what) + " '" + std::string(token) + "' (want 0x hex)");
  out = *value;
  return true;
}

// R|W WIDTH TIME MAPID 0xPHYS 0xVALUE 0xPC 0
bool ParseAccess(const std::vector<std::string_view>& t, CaptureRecord& record, std::string& error) {
  if (t.size() != 8) return Fail(error, "an access record has 8 fields: R|W WIDTH TIME MAPID 0xADDR 0xVALUE 0xPC 0");
  record.kind = t[0] == "R" ? CaptureKind::kRead : CaptureKind::kWrite;
  auto width = ParseDecimalToken(t[1]);
  if (!width || !IsAccessWidth(*width)) return Fail(error, "bad access width '" + std::string(t[1]) + "' (1, 2, 4 or 8 bytes)");
  record.width = static_cast<unsigned>(*width);
  if (!ParseTime(t[2], record, error) || !ParseMapId(t[3], record, error)) return false;
  if (!ParseAddress(t[4], record.address, "address", error) || !ParseAddress(t[5], record.value, "value", error)) {
    return false;
  }
  if (record.width < 8 && (record.value >> (record.width * 8)) != 0) {
    return Fail(error, "value " + std::string(t[5]) + " does not fit in " + std::to_string(record.width) + " byte(s)");
  }
  if (!ParseHexToken(t[6])) return Fail(error, "bad program counter '" + std::string(t[6]) + "'");
  return true;
}

// PCIDEV BBDF VVVVDDDD IRQ START*7 SIZE*7 [DRIVER]
bool ParsePciDev(const std::vector<std::string_view>& t, CaptureRecord& record, std::string& error) {
  if (t.size() < 18 || t.size() > 19) {
    return Fail(error, "a PCIDEV record has a bus/devfn, vendor/device, irq, 7 BAR starts, 7 sizes and a driver");
  }
  auto bdf = ParseHexToken(t[1]);
  auto ids = ParseHexToken(t[2]);
  if (!bdf || t[1].size() != 4 || !ids || t[2].size() != 8 || !ParseHexToken(t[3])) {
    return Fail(error, "bad PCIDEV device fields '" + std::string(t[1]) + " " + std::string(t[2]) + "'");
  }
  CapturePciDevice& pci = record.pci;
  pci.bus_devfn = static_cast<uint16_t>(*bdf);
  pci.vendor = static_cast<uint16_t>(*ids >> 16);
  pci.device = static_cast<uint16_t>(*ids & 0xffff);
  for (size_t i = 0; i < 7; ++i) {
    auto start = ParseHexToken(t[4 + i]);
    auto size = ParseHexToken(t[11 + i]);
    if (!start || !size) return Fail(error, "bad PCIDEV BAR " + std::to_string(i));
    // The low bits are the resource flags (PCI_REGION_FLAG_MASK); bit 0 is
    // an I/O BAR's, whose addresses are ports, not memory.
    pci.io[i] = (*start & 1) != 0;
    pci.start[i] = *start & ~uint64_t{0xf};
    pci.size[i] = *size;
  }
  pci.driver = t.size() == 19 ? std::string(t[18]) : std::string();
  record.kind = CaptureKind::kPciDev;
  return true;
}

}  // namespace

bool ParseMmiotraceLine(std::string_view line, CaptureRecord& record, std::string& error) {
  error.clear();
  std::string_view rest;
  std::vector<std::string_view> head = SplitTokens(line, 2, &rest);
  if (head.empty()) return false;
  std::string_view word = head[0];
  if (word == "MARK") {
    if (head.size() < 2) return Fail(error, "MARK without a timestamp");
    if (!ParseTime(head[1], record, error)) return false;
    // `MARK 0.000000 Lost N events.`: the tracer's own note that it dropped records.
    std::vector<std::string_view> words = SplitTokens(rest, 4);
    if (words.size() == 3 && words[0] == "Lost" && (words[2] == "events." || words[2] == "events")) {
      if (auto lost = ParseDecimalToken(words[1])) {
        record.kind = CaptureKind::kLost;
        record.value = *lost;
        return true;
      }
    }
    while (!rest.empty() && (rest.back() == '\r' || rest.back() == ' ')) rest.remove_suffix(1);
    record.kind = CaptureKind::kMark;
    record.text = std::string(rest);
    return true;
  }
  if (word == "LSPCI") return false;  // lspci -v's text, for people reading the trace
  std::vector<std::string_view> t = SplitTokens(line, 32);
  if (word == "R" || word == "W") return ParseAccess(t, record, error);
  if (word == "MAP") {
    if (t.size() != 8) return Fail(error, "a MAP record has 8 fields: MAP TIME MAPID 0xADDR 0xVIRT 0xLEN 0x0 0");
    record.kind = CaptureKind::kMap;
    return ParseTime(t[1], record, error) && ParseMapId(t[2], record, error) &&
           ParseAddress(t[3], record.address, "address", error) && ParseAddress(t[5], record.length, "length", error);
  }
  if (word == "UNMAP") {
    if (t.size() != 5) return Fail(error, "an UNMAP record has 5 fields: UNMAP TIME MAPID 0x0 0");
    record.kind = CaptureKind::kUnmap;
    return ParseTime(t[1], record, error) && ParseMapId(t[2], record, error);
  }
  if (word == "UNKNOWN") {
    if (t.size() != 7) return Fail(error, "an UNKNOWN record has 7 fields: UNKNOWN TIME MAPID 0xADDR B2,B1,B0 0xPC 0");
    record.kind = CaptureKind::kUnknown;
    record.text = std::string(t[4]);
    return ParseTime(t[1], record, error) && ParseMapId(t[2], record, error) &&
           ParseAddress(t[3], record.address, "address", error);
  }
  if (word == "PCIDEV") return ParsePciDev(t, record, error);
  if (word == "VERSION") {
    auto version = t.size() == 2 ? ParseDecimalToken(t[1]) : std::nullopt;
    if (!version) return Fail(error, "VERSION takes one number");
    record.kind = CaptureKind::kVersion;
    record.value = *version;
    return true;
  }
  return Fail(error, "unknown mmiotrace record '" + std::string(word.substr(0, 40)) + "'");
}

}  // namespace regemu::traces
