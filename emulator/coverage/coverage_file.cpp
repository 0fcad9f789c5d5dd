// The coverage file: JSON, {"format": "regemu-coverage", "version": 1, ...}
// (docs/coverage.md has the schema). The reader trusts nothing: any
// file a user passes to `regemu coverage` may be another tool's JSON, a
// truncated write or garbage, and each is a message naming the file and
// the place, never a crash.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <variant>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using nlohmann::json;

constexpr const char* kFormat = "regemu-coverage";
constexpr uint64_t kVersion = 1;

std::string LayoutText(uint64_t layout) { return regdb::HexPadded(layout, 64); }

json CountsJson(const std::map<std::string, uint64_t, std::less<>>& counts) {
  json out = json::object();
  for (const auto& [name, count] : counts) out[name] = count;
  return out;
}

json ModelJson(const ModelCoverage& model) {
  json touched = json::object();
  for (const auto& [name, reg] : model.touched) {
    touched[name] = {{"reads", reg.reads},
                     {"writes", reg.writes},
                     {"fields_changed", CountsJson(reg.fields_changed)},
                     {"effects", CountsJson(reg.effects)}};
  }
  json behaviours = json::object();
  for (const auto& [name, behaviour] : model.behaviours) {
    json points = json::array();
    for (const PointCoverage& point : behaviour.points) {
      points.push_back({{"group", point.group}, {"name", point.name}, {"hits", point.hits}});
    }
    behaviours[name] = {{"kind", behaviour.kind}, {"points", std::move(points)}};
  }
  json violations = json::object();
  for (const auto& [kind, registers] : model.violations) {
    json counts = json::object();
    for (const auto& [reg, count] : registers) counts[reg] = count;
    violations[kind] = std::move(counts);
  }
  return {{"device", model.device},
          {"layout", LayoutText(model.layout)},
          {"registers", model.registers},
          {"fields", model.fields},
          {"effect_registers", CountsJson(model.effect_registers)},
          {"processes", model.processes},
          {"devices", model.devices},
          {"touched", std::move(touched)},
          {"behaviours", std::move(behaviours)},
          {"violations", std::move(violations)}};
}

// Reads one parsed file into CoverageData, checking every value's type.
// Each accessor names the JSON path of what it read, so that an error
// says where the file is wrong ("models[0].touched.FOO.reads").
class FileReader {
 public:
  explicit FileReader(std::string origin) : origin_(std::move(origin)) {}
  const std::string& error() const { return error_; }

  bool Read(const json& root, CoverageData& out) {
    if (!root.is_object() || !root.contains("format") || root["format"] != kFormat) {
      return Fail("", std::string("not a regemu coverage file (no \"format\": \"") + kFormat + "\")");
    }
    uint64_t version = 0;
    if (!Count(root, "version", "", version)) return false;
    if (version != kVersion) {
      return Fail("version", "version " + std::to_string(version) + " (this regemu reads version " +
                                 std::to_string(kVersion) + "; a newer regemu wrote it?)");
    }
    if (!Count(root, "processes", "", out.processes)) return false;
    const json* models = Member(root, "models", "", json::value_t::array);
    if (models == nullptr) return false;
    for (size_t i = 0; i < models->size(); ++i) {
      ModelCoverage model;
      if (!ReadModel((*models)[i], "models[" + std::to_string(i) + "]", model)) return false;
      MergeInto(out, model);
    }
    return true;
  }

 private:
  bool Fail(const std::string& where, const std::string& what) {
    error_ = origin_ + ": " + (where.empty() ? "" : where + ": ") + what;
    return false;
  }

  static std::string Path(const std::string& where, const std::string& key) {
    return where.empty() ? key : where + "." + key;
  }

  static const char* TypeName(json::value_t type) {
    switch (type) {
      case json::value_t::object: return "an object";
      case json::value_t::array: return "an array";
      case json::value_t::string: return "a string";
      default: return "a non-negative integer";
    }
  }

  // parent[key], required, of `type`.
  const json* Member(const json& parent, const char* key, const std::string& where, json::value_t type) {
    auto it = parent.find(key);
    if (it == parent.end()) {
      Fail(where, std::string("\"") + key + "\" is missing");
      return nullptr;
    }
    bool ok = type == json::value_t::number_unsigned ? it->is_number_unsigned() : it->type() == type;
    if (!ok) {
      Fail(Path(where, key), std::string("expected ") + TypeName(type) + ", got " + Shown(*it));
      return nullptr;
    }
    return &*it;
  }

  // Containers by their type only: dumping one would recurse as deep as
  // the file nests.
  static std::string Shown(const json& value) {
    if (value.is_object()) return "an object";
    if (value.is_array()) return "an array";
    std::string text = value.dump();
    return text.size() > 40 ? text.substr(0, 40) + "..." : text;
  }

  bool Count(const json& parent, const char* key, const std::string& where, uint64_t& out) {
    const json* value = Member(parent, key, where, json::value_t::number_unsigned);
    if (value == nullptr) return false;
    out = value->get<uint64_t>();
    return true;
  }

  bool Text(const json& parent, const char* key, const std::string& where, std::string& out) {
    const json* value = Member(parent, key, where, json::value_t::string);
    if (value == nullptr) return false;
    out = value->get<std::string>();
    return true;
  }

  // {name: count, ...}
  template <typename Map>
  bool Counts(const json& parent, const char* key, const std::string& where, Map& out) {
    const json* object = Member(parent, key, where, json::value_t::object);
    if (object == nullptr) return false;
    std::string path = Path(where, key);
    for (const auto& [name, value] : object->items()) {
      if (!value.is_number_unsigned()) {
        return Fail(path + "." + name, "expected a non-negative integer, got " + Shown(value));
      }
      out[name] = value.template get<uint64_t>();
    }
    return true;
  }

  bool ReadModel(const json& in, const std::string& where, ModelCoverage& model) {
    if (!in.is_object()) return Fail(where, "expected an object, got " + Shown(in));
    std::string layout;
    if (!Text(in, "device", where, model.device) || !Text(in, "layout", where, layout)) return false;
    if (!ParseLayout(layout, model.layout)) {
      return Fail(Path(where, "layout"), "expected a 64-bit hex number (0x...), got \"" + layout + "\"");
    }
    if (!Count(in, "registers", where, model.registers) || !Count(in, "fields", where, model.fields) ||
        !Count(in, "processes", where, model.processes) || !Count(in, "devices", where, model.devices) ||
        !Counts(in, "effect_registers", where, model.effect_registers)) {
      return false;
    }
    const json* touched = Member(in, "touched", where, json::value_t::object);
    if (touched == nullptr) return false;
    for (const auto& [name, value] : touched->items()) {
      std::string path = Path(where, "touched") + "." + name;
      if (!value.is_object()) return Fail(path, "expected an object, got " + Shown(value));
      RegisterCoverage& reg = model.touched[name];
      if (!Count(value, "reads", path, reg.reads) || !Count(value, "writes", path, reg.writes) ||
          !Counts(value, "fields_changed", path, reg.fields_changed) || !Counts(value, "effects", path, reg.effects)) {
        return false;
      }
    }
    const json* behaviours = Member(in, "behaviours", where, json::value_t::object);
    if (behaviours == nullptr) return false;
    for (const auto& [name, value] : behaviours->items()) {
      if (!ReadBehaviour(value, Path(where, "behaviours") + "." + name, model.behaviours[name])) return false;
    }
    const json* violations = Member(in, "violations", where, json::value_t::object);
    if (violations == nullptr) return false;
    for (const auto& [kind, value] : violations->items()) {
      if (!Counts(*violations, kind.c_str(), Path(where, "violations"), model.violations[kind])) return false;
    }
    return true;
  }

  bool ReadBehaviour(const json& in, const std::string& where, BehaviourCoverage& behaviour) {
    if (!in.is_object()) return Fail(where, "expected an object, got " + Shown(in));
    if (!Text(in, "kind", where, behaviour.kind)) return false;
    const json* points = Member(in, "points", where, json::value_t::array);
    if (points == nullptr) return false;
    std::set<std::pair<std::string, std::string>> seen;
    for (size_t i = 0; i < points->size(); ++i) {
      std::string path = where + ".points[" + std::to_string(i) + "]";
      const json& p = (*points)[i];
      if (!p.is_object()) return Fail(path, "expected an object, got " + Shown(p));
      PointCoverage point;
      if (!Text(p, "group", path, point.group) || !Text(p, "name", path, point.name) ||
          !Count(p, "hits", path, point.hits)) {
        return false;
      }
      if (!seen.emplace(point.group, point.name).second) {
        return Fail(path, "point '" + point.name + "' of group '" + point.group + "' is listed twice");
      }
      behaviour.points.push_back(std::move(point));
    }
    return true;
  }

  // As LayoutText writes it: "0x" and at most 16 hex digits, no '_'.
  static bool ParseLayout(const std::string& text, uint64_t& out) {
    if (text.size() < 3 || text.size() > 18 || !text.starts_with("0x") || text.find('_') != std::string::npos) {
      return false;
    }
    std::variant<uint64_t, regdb::NumberError> parsed = regdb::ParseUnsigned(text);
    if (const uint64_t* value = std::get_if<uint64_t>(&parsed)) {
      out = *value;
      return true;
    }
    return false;
  }

  std::string origin_;
  std::string error_;
};

}  // namespace

std::string CoverageJson(const CoverageData& data) {
  json models = json::array();
  for (const auto& [key, model] : data.models) models.push_back(ModelJson(model));
  json root = {{"format", kFormat}, {"version", kVersion}, {"processes", data.processes}, {"models", std::move(models)}};
  return root.dump(1) + "\n";
}

bool ParseCoverage(const std::string& text, const std::string& origin, CoverageData& out, std::string& error) {
  json root;
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {
    // "[json.exception.parse_error.101] parse error at line 1, ...": the part after the id.
    std::string what = e.what();
    if (size_t id_end = what.find("] "); what.rfind("[json.", 0) == 0 && id_end != std::string::npos) {
      what = what.substr(id_end + 2);
    }
    error = origin + ": not a regemu coverage file (not JSON: " + what + ")";
    return false;
  }
  CoverageData data;
  FileReader reader(origin);
  if (!reader.Read(root, data)) {
    error = reader.error();
    return false;
  }
  out = std::move(data);
  return true;
}

bool ReadCoverageFile(const std::filesystem::path& path, CoverageData& out, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = path.string() + ": cannot open: " + std::strerror(errno);
    return false;
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    error = path.string() + ": cannot read: " + std::strerror(errno);
    return false;
  }
  return ParseCoverage(text.str(), path.string(), out, error);
}

bool WriteCoverageFile(const std::filesystem::path& path, const CoverageData& data, std::string& error) {
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  if (ec) {
    error = path.string() + ": cannot create its folder: " + ec.message();
    return false;
  }
  // Written beside it and renamed into place: a process killed mid-write
  // leaves no truncated file for the merge to trip over.
  std::filesystem::path partial = path;
  partial += ".partial-" + std::to_string(getpid());
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << CoverageJson(data);
    out.close();
    if (!out) {
      error = path.string() + ": cannot write: " + std::strerror(errno);
      std::filesystem::remove(partial, ec);
      return false;
    }
  }
  std::filesystem::rename(partial, path, ec);
  if (ec) {
    error = path.string() + ": cannot write: " + ec.message();
    std::filesystem::remove(partial, ec);
    return false;
  }
  return true;
}

}  // namespace regemu::emulator
