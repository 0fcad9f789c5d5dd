#pragma once
// The pages of a register map, one function each: the text of one HTML file.
// doc_site.cpp decides where they go.

#include <string>

#include "regemu/regdb/database.hpp"
#include "tools/docgen/coverage_marks.hpp"
#include "tools/docgen/site.hpp"

namespace regemu::docgen {

// index.html: the device, its diagnostics, spaces, blocks and arrays,
// behaviours, and the register list with its search box.
std::string IndexPage(const Site& site, const CoverageMarks& coverage);
// registers.js: the register list as data, for the index's search.
std::string RegisterListScript(const Site& site, const CoverageMarks& coverage);
// r/NAME.html: one register in full.
std::string RegisterPage(const Site& site, const regdb::Register& reg, const CoverageMarks& coverage);
// s/NAME.html: a space's address map.
std::string SpacePage(const Site& site, regdb::SpaceIndex space, const CoverageMarks& coverage);
// b/NAME.html: a behaviour, drawn where a picture helps.
std::string BehaviourPage(const Site& site, const regdb::BehaviourSpec& spec, const CoverageMarks& coverage);

// The stylesheet and the script every page links.
std::string_view StyleSheet();
std::string_view PageScript();

}  // namespace regemu::docgen
