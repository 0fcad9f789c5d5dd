#include "regemu/regdb/overlay.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "regemu/regdb/document_reader.hpp"
#include "regemu/regdb/register_reader.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 9> kRegisterChangeKeys{"register", "access",     "reset", "doc",   "ref",
                                                              "volatile", "add_fields", "remove", "view_of"};
constexpr std::array<std::string_view, 6> kFieldChangeKeys{"field", "access", "reset", "doc", "volatile", "remove"};
constexpr std::array<std::string_view, 4> kSpaceChangeKeys{"space", "size", "pci_bar", "doc"};

// Sets the bits of `field` in the register's reset to the field's reset, so
// a register reset given elsewhere and the changed field agree.
void MergeFieldReset(Register& reg, const Field& field) {
  if (!field.reset) return;
  reg.reset = (reg.reset & ~field.mask()) | ((*field.reset << field.bits.lsb) & field.mask());
}

class OverlayApplier {
 public:
  OverlayApplier(const std::vector<YamlNode>& changes, Database& database, Diagnostics& diagnostics)
      : changes_(changes), db_(database), reader_(diagnostics) {
    for (RegisterIndex i = 0; i < db_.registers.size(); ++i) index_.emplace(db_.registers[i].name, i);
  }

  void Apply() {
    for (const YamlNode& list : changes_) {
      if (list.IsNull() || !reader_.ExpectSequence(list, "changes")) continue;
      for (const YamlNode& change : list.children) ApplyOne(change);
    }
    std::erase_if(db_.registers, [&](const Register& reg) { return removed_.contains(reg.name); });
  }

 private:
  void ApplyOne(const YamlNode& change) {
    if (!change.IsMap()) {
      reader_.Error(change, std::string("expected a change as a mapping with 'register', 'field' or 'space', got ") +
                                DescribeKind(change.kind));
      return;
    }
    const YamlNode* reg = change.Find("register");
    const YamlNode* field = change.Find("field");
    const YamlNode* space = change.Find("space");
    if ((reg != nullptr) + (field != nullptr) + (space != nullptr) != 1) {
      reader_.Error(change,
                    "a change names exactly one of 'register: NAME', 'field: REGISTER.FIELD' and 'space: NAME'");
      return;
    }
    if (reg) {
      ChangeRegister(change, *reg);
    } else if (field) {
      ChangeField(change, *field);
    } else {
      ChangeSpace(change, *space);
    }
  }

  // An included space's size, BAR or description: an import's register BAR
  // is as large as its registers reach, the device's as the PCI BAR.
  void ChangeSpace(const YamlNode& change, const YamlNode& name) {
    if (!reader_.ExpectMap(change, "a space change", kSpaceChangeKeys)) return;
    auto text = reader_.Text(name, "space name");
    if (!text) return;
    auto it = std::find_if(db_.spaces.begin(), db_.spaces.end(), [&](const Space& s) { return s.name == *text; });
    if (it == db_.spaces.end()) {
      std::vector<std::string_view> names;
      for (const Space& s : db_.spaces) names.push_back(s.name);
      reader_.Error(name, "the change names space '" + *text + "', which the database does not have" +
                              DidYouMean(*text, names));
      return;
    }
    Space& space = *it;
    if (const YamlNode* size = change.Find("size")) {
      if (auto value = reader_.Unsigned(*size, "space size", 1, Space::kMaxSize)) {
        space.size = *value;
        space.size_loc = size->loc;
      }
    }
    if (const YamlNode* bar = change.Find("pci_bar")) ReadPciBar(*bar, space, reader_);
    if (const YamlNode* doc = change.Find("doc")) space.doc = reader_.Text(*doc, "doc").value_or(space.doc);
  }

  // The named register, or nullptr after reporting it missing (with the
  // nearest name) at `name`.
  Register* Named(const YamlNode& name, const std::string& text) {
    auto it = index_.find(text);
    if (it != index_.end() && !removed_.contains(text)) return &db_.registers[it->second];
    std::vector<std::string_view> names;
    names.reserve(db_.registers.size());
    for (const Register& r : db_.registers) {
      if (!removed_.contains(r.name)) names.push_back(r.name);
    }
    std::string why = removed_.contains(text) ? " (an earlier change removed it)" : DidYouMean(text, names);
    reader_.Error(name, "the change names register '" + text + "', which the database does not have" + why);
    return nullptr;
  }

  // `remove: true` stands alone: removing and changing at once says nothing.
  std::optional<bool> ReadRemove(const YamlNode& change) {
    const YamlNode* remove = change.Find("remove");
    if (!remove) return false;
    auto yes = reader_.Bool(*remove, "remove");
    if (!yes) return std::nullopt;
    if (*yes && change.MapSize() > 2) {
      reader_.Error(*remove, "a change with 'remove: true' has no other keys (it removes the whole thing)");
      return std::nullopt;
    }
    return *yes;
  }

  void ChangeRegister(const YamlNode& change, const YamlNode& name) {
    if (!reader_.ExpectMap(change, "a register change", kRegisterChangeKeys)) return;
    auto text = reader_.Text(name, "register name");
    if (!text) return;
    Register* reg = Named(name, *text);
    if (!reg) return;
    reg->changed_by_overlay = true;
    auto remove = ReadRemove(change);
    if (!remove) return;
    if (*remove) {
      removed_.insert(reg->name);
      return;
    }
    bool had_fields = !reg->fields.empty();
    if (const YamlNode* fields = change.Find("add_fields"); fields && reader_.ExpectSequence(*fields, "add_fields")) {
      for (const YamlNode& entry : fields->children) AddField(*reg, entry);
    }
    if (const YamlNode* access = change.Find("access")) {
      if (auto a = ReadAccess(*access, reader_)) reg->default_access = *a;
    } else if (!had_fields && !reg->fields.empty()) {
      // As if the fields had been written in the register: bits no field covers are reserved.
      reg->default_access = Access::kRsvd;
    }
    if (reg->default_access == Access::kHw) reg->is_volatile = true;
    if (const YamlNode* reset = change.Find("reset")) {
      if (auto value = reader_.Unsigned(*reset, "reset")) {
        reg->reset = *value;
        reg->reset_given = true;
        reg->reset_loc = reset->loc;
        // The register's new reset gives each field its reset.
        for (Field& f : reg->fields) {
          if (f.reset) f.reset = (*value & f.mask()) >> f.bits.lsb;
        }
      }
    }
    if (const YamlNode* v = change.Find("volatile")) reg->is_volatile = reader_.Bool(*v, "volatile").value_or(false);
    if (const YamlNode* doc = change.Find("doc")) reg->doc = reader_.Text(*doc, "doc").value_or(reg->doc);
    if (const YamlNode* ref = change.Find("ref")) reg->ref = reader_.Text(*ref, "ref").value_or(reg->ref);
    if (const YamlNode* view = change.Find("view_of")) {
      if (auto id = reader_.Identifier(*view, "view_of")) {
        reg->view_of = *id;
        reg->view_of_loc = view->loc;
      }
    }
  }

  void AddField(Register& reg, const YamlNode& entry) {
    auto field = ReadField(entry, reader_);
    if (!field) return;
    if (const Field* previous = reg.FindField(field->name)) {
      reader_.Error(entry, "register '" + reg.name + "' already has a field '" + field->name +
                               "': change it with 'field: " + reg.name + "." + field->name + "'")
          .notes.push_back({previous->loc, "the field is defined here"});
      return;
    }
    MergeFieldReset(reg, *field);
    reg.fields.push_back(std::move(*field));
  }

  void ChangeField(const YamlNode& change, const YamlNode& name) {
    if (!reader_.ExpectMap(change, "a field change", kFieldChangeKeys)) return;
    auto text = reader_.Text(name, "field");
    if (!text) return;
    size_t dot = text->find('.');
    if (dot == std::string::npos) {
      reader_.Error(name, "field '" + *text + "' must be REGISTER.FIELD");
      return;
    }
    Register* reg = Named(name, text->substr(0, dot));
    if (!reg) return;
    std::string field_name = text->substr(dot + 1);
    auto it = std::find_if(reg->fields.begin(), reg->fields.end(),
                           [&](const Field& f) { return f.name == field_name; });
    if (it == reg->fields.end()) {
      std::vector<std::string_view> names;
      for (const Field& f : reg->fields) names.push_back(f.name);
      reader_.Error(name, "the change names field '" + field_name + "' of register '" + reg->name +
                              "', which has no such field" + DidYouMean(field_name, names))
          .notes.push_back({reg->loc, "the register is defined here"});
      return;
    }
    reg->changed_by_overlay = true;
    auto remove = ReadRemove(change);
    if (!remove) return;
    if (*remove) {
      if (!reg->reset_given) reg->reset &= ~it->mask();  // the reset was the fields' resets combined
      reg->fields.erase(it);
      return;
    }
    Field& field = *it;
    if (const YamlNode* access = change.Find("access")) {
      if (auto a = ReadAccess(*access, reader_)) field.access = *a;
    }
    if (field.access == Access::kHw) field.is_volatile = true;
    if (const YamlNode* reset = change.Find("reset")) {
      if (auto value = reader_.Unsigned(*reset, "field reset")) {
        field.reset = *value;
        field.reset_loc = reset->loc;
        // One that does not fit is left for the checker's field checks to report.
        if ((*value & ~(field.mask() >> field.bits.lsb)) == 0) MergeFieldReset(*reg, field);
      }
    }
    if (const YamlNode* v = change.Find("volatile")) field.is_volatile = reader_.Bool(*v, "volatile").value_or(false);
    if (const YamlNode* doc = change.Find("doc")) field.doc = reader_.Text(*doc, "doc").value_or(field.doc);
  }

  const std::vector<YamlNode>& changes_;
  Database& db_;
  SchemaReader reader_;
  std::unordered_map<std::string, RegisterIndex> index_;
  std::unordered_set<std::string> removed_;
};

}  // namespace

void ApplyOverlayChanges(const std::vector<YamlNode>& changes, Database& database, Diagnostics& diagnostics) {
  if (changes.empty()) return;
  OverlayApplier(changes, database, diagnostics).Apply();
}

}  // namespace regemu::regdb
