#pragma once
// What the browser tests need besides the browser: running the built
// `regemu` (to write the pages, and `show --json` as the truth the pages are
// held to), and turning paths into file:// URLs and back.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace regemu::doc_test {

struct RegemuRun {
  int exit_code = -1;
  std::string output;  // stdout then stderr
  double seconds = 0;  // wall time
};

// `regemu ARGS` (shell text) run from the source tree, so that the
// databases' relative paths (yaml/icl) work as in the README.
inline RegemuRun RunRegemu(const std::string& args) {
  namespace fs = std::filesystem;
  fs::path out = fs::temp_directory_path() / ("regemu-doc-test-" + std::to_string(getpid()) + ".out");
  fs::path err = fs::path(out).replace_extension(".err");
  std::string command = "cd '" + std::string(REGEMU_SOURCE_DIR) + "' && '" + std::string(REGEMU_BINARY) + "' " + args +
                        " >'" + out.string() + "' 2>'" + err.string() + "'";
  auto start = std::chrono::steady_clock::now();
  int status = std::system(command.c_str());
  RegemuRun run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  for (const fs::path& path : {out, err}) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    run.output += text.str();
    fs::remove(path);
  }
  return run;
}

// One register as `regemu show --json` describes it: the names and bits of
// its fields, which its page must draw.
struct RegisterFacts {
  std::string name;
  int width = 0;
  std::vector<std::string> fields;
  int covered_bits = 0;  // bits some field covers
};

// Every register of DB, in `regemu show`'s order.
inline std::vector<std::string> RegisterNames(const std::string& db) {
  RegemuRun run = RunRegemu("show " + db + " --json");
  if (run.exit_code != 0) throw std::runtime_error("regemu show " + db + " failed:\n" + run.output);
  const nlohmann::json listing = nlohmann::json::parse(run.output);
  std::vector<std::string> names;
  for (const auto& reg : listing.at("registers")) names.push_back(reg["name"]);
  return names;
}

inline RegisterFacts ShowRegister(const std::string& db, const std::string& name) {
  RegemuRun run = RunRegemu("show " + db + " " + name + " --json");
  if (run.exit_code != 0) throw std::runtime_error("regemu show " + db + " " + name + " failed:\n" + run.output);
  const nlohmann::json shown = nlohmann::json::parse(run.output);
  const nlohmann::json& reg = shown.at("register");
  RegisterFacts facts{name, reg.value("width", 0), {}, 0};
  for (const auto& field : reg.at("fields")) {
    facts.fields.push_back(field["name"]);
    facts.covered_bits += field["msb"].get<int>() - field["lsb"].get<int>() + 1;
  }
  return facts;
}

inline std::string FileUrl(const std::filesystem::path& path) {
  return "file://" + std::filesystem::absolute(path).lexically_normal().string();
}

// The file a file:// URL names (fragment and query dropped, %XX decoded);
// empty for any other URL.
inline std::filesystem::path FileFromUrl(const std::string& url) {
  const std::string scheme = "file://";
  if (url.rfind(scheme, 0) != 0) return {};
  std::string path = url.substr(scheme.size(), url.find_first_of("?#") - scheme.size());
  std::string decoded;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '%' && i + 2 < path.size()) {
      decoded.push_back(static_cast<char>(std::stoi(path.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      decoded.push_back(path[i]);
    }
  }
  return decoded;
}

}  // namespace regemu::doc_test
