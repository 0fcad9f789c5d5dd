#pragma once
// `regemu doc`: writes a device's register map as a static site, every page
// and asset in one folder so it opens from disk with no server:
//
//   index.html, registers.js   the device, its diagnostics, and the searchable register list
//   r/NAME.html                one page per register
//   s/NAME.html                one address map per space
//   b/NAME.html                one page per behaviour
//   regemu-doc.css, regemu-doc.js

#include <filesystem>
#include <string>

#include "regemu/regdb/loader.hpp"
#include "tools/docgen/coverage_marks.hpp"

namespace regemu::docgen {

struct DocSiteStats {
  size_t pages = 0;
  uint64_t bytes = 0;
};

// Writes the site of `loaded` (a checked database) into `folder`, creating
// it. A folder holding an earlier map (regemu-doc.css) loses its old pages
// first, so a renamed register leaves no stale page; any other non-empty
// folder is refused. False with `error` set when a file cannot be written.
bool WriteDocSite(const regdb::LoadedDatabase& loaded, const CoverageMarks& coverage,
                  const std::filesystem::path& folder, DocSiteStats& stats, std::string& error);

}  // namespace regemu::docgen
