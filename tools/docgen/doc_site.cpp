#include "tools/docgen/doc_site.hpp"

#include <fstream>

#include "tools/docgen/pages.hpp"
#include "tools/docgen/site.hpp"

namespace regemu::docgen {
namespace {

namespace fs = std::filesystem;

constexpr const char* kPageFolders[] = {"r", "s", "b"};

class Writer {
 public:
  Writer(fs::path root, DocSiteStats& stats) : root_(std::move(root)), stats_(stats) {}

  bool Write(const fs::path& relative, std::string_view text) {
    if (!ok()) return false;
    fs::path path = root_ / relative;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.close();
    if (!out) {
      error_ = "cannot write " + path.string();
      return false;
    }
    ++stats_.pages;
    stats_.bytes += text.size();
    return true;
  }
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

 private:
  fs::path root_;
  DocSiteStats& stats_;
  std::string error_;
};

// An empty folder, or one holding an earlier map (whose page folders go).
bool PrepareFolder(const fs::path& folder, std::string& error) {
  std::error_code ec;
  if (fs::exists(folder, ec)) {
    if (!fs::is_directory(folder, ec)) {
      error = folder.string() + " exists and is not a folder";
      return false;
    }
    bool empty = fs::is_empty(folder, ec);
    if (!empty && !fs::exists(folder / "regemu-doc.css", ec)) {
      error = folder.string() + " is not empty and holds no earlier register map: choose an empty or new folder";
      return false;
    }
    for (const char* sub : kPageFolders) fs::remove_all(folder / sub, ec);
  }
  for (const char* sub : kPageFolders) {
    fs::create_directories(folder / sub, ec);
    if (ec) {
      error = "cannot create " + (folder / sub).string() + ": " + ec.message();
      return false;
    }
  }
  return true;
}

}  // namespace

bool WriteDocSite(const regdb::LoadedDatabase& loaded, const CoverageMarks& coverage, const fs::path& folder,
                  DocSiteStats& stats, std::string& error) {
  if (!PrepareFolder(folder, error)) return false;
  Site site(loaded);
  const regdb::Database& db = loaded.database;
  Writer writer(folder, stats);
  writer.Write("regemu-doc.css", StyleSheet());
  writer.Write("regemu-doc.js", PageScript());
  writer.Write("index.html", IndexPage(site, coverage));
  writer.Write("registers.js", RegisterListScript(site, coverage));
  for (size_t i = 0; i < db.spaces.size() && writer.ok(); ++i) {
    writer.Write(fs::path("s") / (db.spaces[i].name + ".html"), SpacePage(site, static_cast<regdb::SpaceIndex>(i), coverage));
  }
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    if (!writer.Write(fs::path("b") / (spec.name + ".html"), BehaviourPage(site, spec, coverage))) break;
  }
  for (const regdb::Register& reg : db.registers) {
    if (!writer.Write(fs::path("r") / (reg.name + ".html"), RegisterPage(site, reg, coverage))) break;
  }
  error = writer.error();
  return writer.ok();
}

}  // namespace regemu::docgen
