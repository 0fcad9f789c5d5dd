#pragma once
// `derivedFrom` at every level. An element's derivation chain is the
// element, then what it derives from, and so on; a property is the first
// one the chain has (the element's own value overrides the base's). A name
// that finds nothing, a cycle and a chain past the depth limit are located
// errors.
//
// Where SVD looks a name up: a peripheral among the device's peripherals;
// a register, cluster or field first among its siblings, then as a dotted
// path from the device (PERIPHERAL.REGISTER, PERIPHERAL.CLUSTER.REGISTER,
// PERIPHERAL.REGISTER.FIELD); enumeratedValues by their <name> anywhere.

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <pugixml.hpp>

#include "regemu/regdb/diagnostics.hpp"
#include "tools/convert/svd_document.hpp"

namespace regemu::convert {

class SvdDerivation {
 public:
  SvdDerivation(const SvdDocument& document, const SvdLimits& limits, regdb::Diagnostics& diagnostics);

  // `node` first, then its bases; nullopt after reporting a broken chain.
  std::optional<std::vector<pugi::xml_node>> Chain(pugi::xml_node node);

  // The first child `name` along `chain`.
  static pugi::xml_node Find(const std::vector<pugi::xml_node>& chain, const char* name);
  static std::optional<std::string> Text(const std::vector<pugi::xml_node>& chain, const char* name);

 private:
  pugi::xml_node Base(pugi::xml_node node, const std::string& reference);
  pugi::xml_node ByPath(const std::string& path);

  const SvdDocument& document_;
  const SvdLimits& limits_;
  regdb::Diagnostics& diagnostics_;
  std::unordered_map<std::string, pugi::xml_node> peripherals_;
  std::unordered_map<std::string, pugi::xml_node> enumerations_;
};

}  // namespace regemu::convert
