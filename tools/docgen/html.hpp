#pragma once
// The small pieces every page of the register map is made of: escaping,
// numbers as datasheets print them, links between pages, and the page frame
// (head, navigation, footer) with paths relative to the page's folder, so
// the site works opened straight from disk.

#include <cstdint>
#include <string>
#include <string_view>

#include "regemu/regdb/numbers.hpp"

namespace regemu::docgen {

// Text for HTML and SVG content and attribute values.
std::string Escape(std::string_view text);

// "0x1c", as the database and `regemu show` print offsets.
using regdb::Hex;

// A coordinate for SVG: two decimals ("12.50").
std::string Coordinate(double value);

// Where a page lives: the site's root, or one folder below it (r/, s/, b/).
enum class PageDepth { kRoot, kSubfolder };

// Links from a page at `depth` to other pages of the site.
std::string RootPrefix(PageDepth depth);  // "" or "../"
std::string RegisterHref(PageDepth depth, std::string_view name);
std::string SpaceHref(PageDepth depth, std::string_view name);
std::string BehaviourHref(PageDepth depth, std::string_view name);
// `<a href="...">NAME</a>` to a register's page.
std::string RegisterLink(PageDepth depth, std::string_view name);

struct PageFrame {
  std::string title;   // the <title> and the heading line above the page
  std::string device;  // shown in the navigation bar
  PageDepth depth = PageDepth::kRoot;
  bool search_data = false;  // the page loads registers.js (the index)
};

std::string PageStart(const PageFrame& frame);
std::string PageEnd(const PageFrame& frame);

}  // namespace regemu::docgen
