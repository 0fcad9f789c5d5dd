#include "regemu/regdb/loader.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <system_error>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/document_reader.hpp"
#include "regemu/regdb/overlay.hpp"
#include "regemu/regdb/schema_reader.hpp"

namespace regemu::regdb {
namespace fs = std::filesystem;

FileReader DiskFileReader() {
  return [](const fs::path& path, size_t max_bytes) -> FileReadResult {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return {false, "is a folder, not a file"};
    auto size = fs::file_size(path, ec);
    if (ec) return {false, ec.message()};
    if (size > max_bytes) {
      return {false, "file is " + std::to_string(size) + " bytes, more than the limit of " + std::to_string(max_bytes)};
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return {false, "cannot be opened"};
    std::ostringstream text;
    text << in.rdbuf();
    return {true, std::move(text).str()};
  };
}

FileReader InMemoryFileReader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const fs::path& path, size_t max_bytes) -> FileReadResult {
    auto it = files.find(path.lexically_normal().generic_string());
    if (it == files.end()) return {false, "no such file"};
    if (it->second.size() > max_bytes) {
      return {false, "file is " + std::to_string(it->second.size()) + " bytes, more than the limit of " +
                         std::to_string(max_bytes)};
    }
    return {true, it->second};
  };
}

namespace {

class Loader {
 public:
  Loader(const LoadOptions& options, LoadedDatabase& out)
      : options_(options), out_(out), reader_(out.diagnostics) {}

  void LoadRoot(const fs::path& given) {
    fs::path root = given;
    std::error_code ec;
    if (fs::is_directory(given, ec)) root = given / "device.yaml";
    LoadFile(root, /*is_root=*/true, SourceLoc{});
  }

  const std::vector<YamlNode>& overlay_changes() const { return overlay_changes_; }
  // The root is an overlay without `device` and no included file named one.
  bool overlay_lacks_device() const { return overlay_root_ && out_.database.device.empty(); }

 private:
  struct StackEntry {
    std::string identity;
    std::string display;
    SourceLoc included_at;
  };

  static std::string Identity(const fs::path& path) {
    std::error_code ec;
    fs::path absolute = fs::absolute(path, ec);
    return (ec ? path : absolute).lexically_normal().generic_string();
  }

  void LoadFile(const fs::path& path, bool is_root, SourceLoc included_at) {
    std::string display = path.lexically_normal().generic_string();
    std::string identity = Identity(path);
    for (size_t i = 0; i < stack_.size(); ++i) {
      if (stack_[i].identity != identity) continue;
      std::string chain;
      for (size_t j = i; j < stack_.size(); ++j) chain += stack_[j].display + " -> ";
      Diagnostic& d = out_.diagnostics.Error(included_at, "include cycle: " + chain + display);
      for (size_t j = i + 1; j < stack_.size(); ++j) {
        d.notes.push_back({stack_[j].included_at, "'" + stack_[j].display + "' is included here"});
      }
      return;
    }
    if (!loaded_.insert(identity).second) return;  // a diamond: already loaded through another path

    if (loaded_.size() > options_.limits.max_files) {
      out_.diagnostics.Error(included_at, "database has more than " + std::to_string(options_.limits.max_files) +
                                              " files");
      return;
    }
    FileReadResult read = options_.read_file(path, options_.limits.max_file_bytes);
    if (!read.ok) {
      out_.diagnostics.Error(included_at, "cannot read '" + display + "': " + read.text_or_error);
      return;
    }
    total_bytes_ += read.text_or_error.size();
    if (total_bytes_ > options_.limits.max_total_bytes) {
      out_.diagnostics.Error(included_at, "database files total more than " +
                                              std::to_string(options_.limits.max_total_bytes) + " bytes");
      return;
    }
    uint32_t file_id = out_.sources.Add(display, std::move(read.text_or_error));
    auto document = ParseYamlFile(out_.sources, file_id, options_.limits, out_.diagnostics);
    if (!document) return;

    const YamlNode* changes = document->IsMap() ? document->Find("changes") : nullptr;
    overlay_root_ = overlay_root_ || (is_root && changes != nullptr);
    DocumentContext context{is_root, options_.max_registers, overlay_root_};
    std::vector<IncludeRequest> includes = ReadDocument(*document, context, out_.database, reader_);
    stack_.push_back({identity, display, included_at});
    for (const IncludeRequest& include : includes) {
      LoadFile(path.parent_path() / include.path, /*is_root=*/false, include.loc);
    }
    stack_.pop_back();
    // After the includes' own: an overlay of an overlay has the last word.
    if (changes) overlay_changes_.push_back(*changes);
  }

  const LoadOptions& options_;
  LoadedDatabase& out_;
  std::vector<YamlNode> overlay_changes_;  // each file's `changes:`, a file's after its includes'
  bool overlay_root_ = false;  // the root file has `changes`
  SchemaReader reader_;
  std::vector<StackEntry> stack_;
  std::set<std::string> loaded_;
  size_t total_bytes_ = 0;
};

}  // namespace

LoadedDatabase LoadDatabase(const fs::path& path, const LoadOptions& options) {
  LoadedDatabase out{SourceSet{}, Database{}, Diagnostics(options.error_limit)};
  Loader loader(options, out);
  loader.LoadRoot(path);
  if (loader.overlay_lacks_device()) {
    out.diagnostics.Error(loader.overlay_changes().back().loc,  // the root file's, applied last
                          "the overlay names no device and includes no file that does: include the imported "
                          "device.yaml, or give 'device'");
  }
  ApplyOverlayChanges(loader.overlay_changes(), out.database, out.diagnostics);
  return out;
}

LoadedDatabase LoadAndCheck(const fs::path& path, const LoadOptions& options) {
  LoadedDatabase out = LoadDatabase(path, options);
  CheckDatabase(out.database, out.diagnostics);
  // Every warning is in only now (behaviour kinds warn at check time).
  out.diagnostics.SettleAcknowledgements();
  return out;
}

}  // namespace regemu::regdb
