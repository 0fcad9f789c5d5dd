#pragma once
// An SVD file as a pugixml DOM whose nodes can be located (file:line:col)
// for diagnostics, plus the readers of SVD's scalar types. pugixml neither
// reads a DTD nor expands entities other than the five predefined ones and
// character references, so a "billion laughs" file cannot grow; a DOCTYPE
// is refused outright, as CMSIS-SVD has none.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <pugixml.hpp>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "tools/convert/svd_limits.hpp"

namespace regemu::convert {

class SvdDocument {
 public:
  // Parses `text` (already added to `sources` as `file_id`). On failure,
  // records a located error and returns false.
  bool Parse(const regdb::SourceSet& sources, uint32_t file_id, const SvdLimits& limits,
             regdb::Diagnostics& diagnostics);

  pugi::xml_node root() const { return document_.document_element(); }
  regdb::SourceLoc Loc(pugi::xml_node node) const;

 private:
  const regdb::SourceSet* sources_ = nullptr;
  uint32_t file_id_ = 0;
  pugi::xml_document document_;
};

// The trimmed text of `node`'s child `name`; nullopt when there is no such child.
std::optional<std::string> ChildText(pugi::xml_node node, const char* name);
// Whitespace runs (descriptions span lines in SVD files) folded into one space.
std::string FoldWhitespace(std::string_view text);

// scaledNonNegativeInteger: decimal, 0x/0X hex, #binary (or 0b), with an
// optional k/M/G/T scale. nullopt for anything else or an overflow.
std::optional<uint64_t> ParseSvdNumber(std::string_view text);
// SVD's enumerated words (accessType, modifiedWriteValuesType, readActionType,
// usage) are case-sensitive xs:enumerations in CMSIS-SVD.xsd, but vendors'
// files vary the case: Nordic's nRF52 files spell `read-writeonce`. `text`
// when it is one of `words`; the word it matches but for case otherwise,
// with `note` saying so; nullopt when it matches none.
std::optional<std::string> CanonicalSvdWord(std::string_view text, std::initializer_list<std::string_view> words,
                                            std::string_view what, std::string& note);
// "true"/"false"/"1"/"0".
std::optional<bool> ParseSvdBool(std::string_view text);

}  // namespace regemu::convert
