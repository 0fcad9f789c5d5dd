#include "regemu/regdb/document_reader.hpp"
#include "regemu/regdb/space_contents.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/behaviour_table.hpp"
#include "regemu/regdb/block_overrides.hpp"
#include "regemu/regdb/register_reader.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 12> kTopKeys{"device", "doc",        "ref",      "include", "spaces", "registers",
                                                    "blocks", "ranges",     "behaviours", "c_prefix", "changes", "let"};
constexpr std::array<std::string_view, 10> kSpaceKeys{"name",      "kind",    "size",     "widths", "alignment",
                                                       "unclaimed", "pci_bar", "contents", "dma",    "doc"};
constexpr std::array<std::string_view, 8> kBlockKeys{"name",      "space", "instances", "registers",
                                                     "behaviours", "doc",   "ref",       "let"};
constexpr std::array<std::string_view, 11> kRangeKeys{"name",   "kind",   "space",      "base", "size", "target",
                                                      "widths", "writes", "enabled_by", "doc",  "ref"};
constexpr std::array<std::string_view, 2> kTargetKeys{"space", "offset"};

WidthSet DefaultWidths(SpaceKind kind) {
  switch (kind) {
    case SpaceKind::kPciConfig: return WidthSet::Of({8, 16, 32});
    case SpaceKind::kMsr: return WidthSet::Of({64});
    case SpaceKind::kMmio:
    case SpaceKind::kMemory:
    case SpaceKind::kState: return WidthSet::Of({8, 16, 32, 64});
  }
  return WidthSet::Of({32});
}

std::optional<WidthSet> ReadWidths(const YamlNode& node, SchemaReader& reader) {
  if (!reader.ExpectSequence(node, "widths")) return std::nullopt;
  WidthSet set;
  for (const YamlNode& item : node.children) {
    auto w = reader.Width(item, "access width");
    if (!w) return std::nullopt;
    set.Add(*w);
  }
  if (set.empty()) {
    reader.Error(node, "widths must list at least one access width");
    return std::nullopt;
  }
  return set;
}

class DocumentReader {
 public:
  DocumentReader(const DocumentContext& context, Database& database, SchemaReader& reader)
      : context_(context), db_(database), reader_(reader) {}

  std::vector<IncludeRequest> Read(const YamlNode& document) {
    std::vector<IncludeRequest> includes;
    if (document.IsNull()) {
      if (context_.is_root) reader_.Error(document, "the device file is empty: expected a mapping with 'device'");
      return includes;
    }
    if (!reader_.ExpectMap(document, "a database file", kTopKeys)) return includes;
    ReadHeader(document);
    if (const YamlNode* list = document.Find("include"); list && reader_.ExpectSequence(*list, "include")) {
      for (const YamlNode& item : list->children) {
        if (auto path = reader_.Text(item, "include path")) includes.push_back({*path, item.loc});
      }
    }
    ForEach(document, "spaces", [&](const YamlNode& n) { ReadSpace(n); });
    ForEach(document, "registers", [&](const YamlNode& n) { ReadRegister(n); });
    ForEach(document, "blocks", [&](const YamlNode& n) { ReadBlock(n); });
    ForEach(document, "ranges", [&](const YamlNode& n) { ReadRange(n); });
    ForEach(document, "behaviours", [&](const YamlNode& n) { ReadBehaviour(n); });
    if (const YamlNode* lets = document.Find("let")) ReadLets(*lets, std::nullopt);
    return includes;
  }

 private:
  template <typename Fn>
  void ForEach(const YamlNode& document, std::string_view key, Fn&& fn) {
    const YamlNode* list = document.Find(key);
    if (!list || list->IsNull()) return;
    if (!reader_.ExpectSequence(*list, key)) return;
    for (const YamlNode& item : list->children) fn(item);
  }

  void ReadHeader(const YamlNode& document) {
    const YamlNode* device = document.Find("device");
    // An overlay (a root file with `changes`) may leave the name to the
    // imported device it includes, or rename it.
    if (context_.is_root || (device && context_.overlay_root)) {
      if (!device) {
        if (!context_.overlay_root) {
          reader_.Error(document, "the device file has no 'device' (required: the device's name)");
        }
      } else if (!db_.device.empty()) {
        // The overlay's own name stands.
      } else if (auto name = reader_.Identifier(*device, "device name")) {
        db_.device = *name;
        db_.loc = device->loc;
      }
      const YamlNode* doc = document.Find("doc");
      const YamlNode* ref = document.Find("ref");
      if (doc && db_.doc.empty()) db_.doc = reader_.Text(*doc, "doc").value_or("");
      if (ref && db_.ref.empty()) db_.ref = reader_.Text(*ref, "ref").value_or("");
      if (const YamlNode* prefix = document.Find("c_prefix")) {
        db_.c_prefix = reader_.Identifier(*prefix, "C prefix").value_or("");
      }
    } else if (device) {
      reader_.Error(*device, "'device' belongs in the root file only; an included file adds to the device")
          .notes.push_back({db_.loc, "the device is named here"});
    }
    if (const YamlNode* prefix = document.Find("c_prefix"); prefix && !context_.is_root) {
      reader_.Error(*prefix, "'c_prefix' belongs in the root file only, beside 'device'");
    }
    file_ref_ = db_.ref;
    if (const YamlNode* ref = document.Find("ref")) file_ref_ = reader_.Text(*ref, "ref").value_or(db_.ref);
  }

  void ReadSpace(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "a space", kSpaceKeys)) return;
    const YamlNode* name = reader_.Required(node, "name", "space");
    const YamlNode* kind = reader_.Required(node, "kind", "space");
    const YamlNode* size = reader_.Required(node, "size", "space");
    if (!name || !kind || !size) return;
    Space space;
    auto id = reader_.Identifier(*name, "space name");
    auto k = reader_.Choice<SpaceKind>(*kind, "space kind",
                                       {{"pci-config", SpaceKind::kPciConfig},
                                        {"mmio", SpaceKind::kMmio},
                                        {"msr", SpaceKind::kMsr},
                                        {"memory", SpaceKind::kMemory},
                                        {"state", SpaceKind::kState}});
    auto s = reader_.Unsigned(*size, "space size", 1, Space::kMaxSize);
    if (!id || !k || !s) return;
    space.name = *id;
    space.kind = *k;
    space.size = *s;
    space.loc = name->loc;
    space.size_loc = size->loc;
    space.widths = DefaultWidths(space.kind);
    if (const YamlNode* widths = node.Find("widths")) {
      if (auto set = ReadWidths(*widths, reader_)) space.widths = *set;
    }
    if (const YamlNode* alignment = node.Find("alignment")) {
      space.natural_alignment =
          reader_.Choice<bool>(*alignment, "alignment", {{"natural", true}, {"none", false}}).value_or(true);
    }
    if (const YamlNode* unclaimed = node.Find("unclaimed")) {
      space.unclaimed = reader_.Unsigned(*unclaimed, "unclaimed value").value_or(0);
    }
    if (const YamlNode* bar = node.Find("pci_bar")) ReadPciBar(*bar, space, reader_);
    if (const YamlNode* contents = node.Find("contents")) ReadSpaceContents(*contents, space, reader_);
    if (const YamlNode* dma = node.Find("dma")) {
      space.dma = reader_.Bool(*dma, "dma").value_or(false);
      if (space.dma && (space.kind != SpaceKind::kMemory || space.pci_bar)) {
        reader_.Error(*dma, "dma is for a memory space that is no BAR (the host memory the device reaches)");
      }
    }
    if (const YamlNode* doc = node.Find("doc")) space.doc = reader_.Text(*doc, "doc").value_or("");
    db_.spaces.push_back(std::move(space));
  }

  void ReadRegister(const YamlNode& node) {
    auto templ = ReadRegisterTemplate(node, /*in_block=*/false, file_ref_, reader_);
    if (templ) ExpandRegister(*templ, 0, std::nullopt, context_.max_registers, db_.registers, reader_);
  }

  void ReadBlock(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "a block", kBlockKeys)) return;
    const YamlNode* name = reader_.Required(node, "name", "block");
    const YamlNode* space = reader_.Required(node, "space", "block");
    const YamlNode* instances = reader_.Required(node, "instances", "block");
    const YamlNode* registers = reader_.Required(node, "registers", "block");
    if (!name || !space || !instances || !registers) return;
    Block block;
    auto id = reader_.Identifier(*name, "block name");
    auto space_name = reader_.Identifier(*space, "space name");
    if (!id || !space_name) return;
    block.name = *id;
    block.space_name = *space_name;
    block.space_loc = space->loc;
    block.loc = name->loc;
    if (const YamlNode* doc = node.Find("doc")) block.doc = reader_.Text(*doc, "doc").value_or("");
    block.ref = file_ref_;
    if (const YamlNode* ref = node.Find("ref")) block.ref = reader_.Text(*ref, "ref").value_or(file_ref_);

    if (!instances->IsMap()) {
      reader_.Error(*instances, std::string("expected block instances as a mapping INSTANCE: base, got ") +
                                    DescribeKind(instances->kind));
      return;
    }
    std::vector<std::vector<ResetOverride>> overrides;  // one list per instance
    for (size_t i = 0; i < instances->MapSize(); ++i) {
      auto instance = reader_.Identifier(instances->MapKey(i), "block instance name");
      std::vector<ResetOverride> instance_overrides;
      auto base = ReadBlockInstance(instances->MapValue(i), instance_overrides, reader_);
      if (!instance || !base) continue;
      bool duplicate = false;
      for (const BlockInstance& previous : block.instances) {
        if (previous.name == *instance) {
          reader_.Error(instances->MapKey(i), "block instance '" + *instance + "' given twice in block '" +
                                                  block.name + "'")
              .notes.push_back({previous.loc, "first given here"});
          duplicate = true;
        }
      }
      if (duplicate) continue;
      block.instances.push_back({*instance, *base, instances->MapKey(i).loc});
      overrides.push_back(std::move(instance_overrides));
    }
    if (block.instances.empty()) reader_.Error(*instances, "block '" + block.name + "' has no instances");

    if (!reader_.ExpectSequence(*registers, "block registers")) return;
    std::vector<RegisterTemplate> templates;
    for (const YamlNode& entry : registers->children) {
      if (auto templ = ReadRegisterTemplate(entry, /*in_block=*/true, block.ref, reader_)) {
        templ->reg.space_name = block.space_name;
        templ->reg.space_loc = space->loc;
        templates.push_back(std::move(*templ));
      }
    }
    for (RegisterTemplate& templ : templates) {
      const std::string& target = templ.reg.alias_of;
      templ.alias_of_block_local =
          !target.empty() && std::any_of(templates.begin(), templates.end(),
                                         [&](const RegisterTemplate& other) { return other.reg.name == target; });
    }
    for (std::vector<ResetOverride>& list : overrides) KeepKnownOverrides(list, templates, block.name, reader_);
    for (size_t k = 0; k < block.instances.size(); ++k) {
      const BlockInstance& instance = block.instances[k];
      BlockOrigin origin{block.name, instance.name, instance.base, {}};
      for (const RegisterTemplate& templ : templates) {
        if (!ExpandRegister(WithOverrides(templ, overrides[k]), instance.base, origin, context_.max_registers,
                            db_.registers, reader_)) {
          return;
        }
      }
    }
    if (const YamlNode* lets = node.Find("let")) {
      for (const BlockInstance& instance : block.instances) ReadLets(*lets, InstanceName{block.name, instance.name});
    }
    // Behaviours written in the block: one copy per instance, each naming
    // its own instance's registers (the checker resolves them in it).
    if (const YamlNode* behaviours = node.Find("behaviours"); behaviours && reader_.ExpectSequence(*behaviours, "block behaviours")) {
      for (const BlockInstance& instance : block.instances) {
        for (const YamlNode& entry : behaviours->children) ReadBehaviour(entry, InstanceName{block.name, instance.name});
      }
    }
    db_.blocks.push_back(std::move(block));
  }

  void ReadRange(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "a range", kRangeKeys)) return;
    const YamlNode* name = reader_.Required(node, "name", "range");
    const YamlNode* kind = reader_.Required(node, "kind", "range");
    const YamlNode* space = reader_.Required(node, "space", "range");
    const YamlNode* base = reader_.Required(node, "base", "range");
    const YamlNode* size = reader_.Required(node, "size", "range");
    if (!name || !kind || !space || !base || !size) return;
    Range range;
    auto id = reader_.Identifier(*name, "range name");
    auto k = reader_.Choice<RangeKind>(*kind, "range kind", {{"reserved", RangeKind::kReserved},
                                                              {"alias", RangeKind::kAlias}});
    auto space_name = reader_.Identifier(*space, "space name");
    auto b = reader_.Unsigned(*base, "range base");
    auto s = reader_.Unsigned(*size, "range size", 1);
    if (!id || !k || !space_name || !b || !s) return;
    range.name = *id;
    range.kind = *k;
    range.space_name = *space_name;
    range.base = *b;
    range.size = *s;
    range.loc = name->loc;
    range.space_loc = space->loc;
    range.base_loc = base->loc;
    if (range.base > std::numeric_limits<uint64_t>::max() - (range.size - 1)) {
      reader_.Error(*size, "range '" + range.name + "' runs past the end of the 64-bit offset range");
      return;
    }
    if (const YamlNode* doc = node.Find("doc")) range.doc = reader_.Text(*doc, "doc").value_or("");
    range.ref = file_ref_;
    if (const YamlNode* ref = node.Find("ref")) range.ref = reader_.Text(*ref, "ref").value_or(file_ref_);

    if (range.kind == RangeKind::kReserved) {
      for (std::string_view alias_key : {"target", "widths", "writes", "enabled_by"}) {
        if (const YamlNode* extra = node.Find(alias_key)) {
          reader_.Error(*extra, "'" + std::string(alias_key) + "' applies to alias ranges only; range '" +
                                    range.name + "' is reserved");
        }
      }
      db_.ranges.push_back(std::move(range));
      return;
    }
    if (!ReadAliasParts(node, range)) return;
    db_.ranges.push_back(std::move(range));
  }

  bool ReadAliasParts(const YamlNode& node, Range& range) {
    const YamlNode* target = reader_.Required(node, "target", "alias range '" + range.name + "'");
    if (!target || !reader_.ExpectMap(*target, "an alias target", kTargetKeys)) return false;
    const YamlNode* target_space = reader_.Required(*target, "space", "alias target");
    const YamlNode* target_offset = reader_.Required(*target, "offset", "alias target");
    if (!target_space || !target_offset) return false;
    auto ts = reader_.Identifier(*target_space, "target space");
    auto to = reader_.Unsigned(*target_offset, "target offset");
    if (!ts || !to) return false;
    range.target_space_name = *ts;
    range.target_offset = *to;
    range.target_loc = target_space->loc;
    if (const YamlNode* widths = node.Find("widths")) {
      auto set = ReadWidths(*widths, reader_);
      if (!set) return false;
      range.widths = *set;
    }
    if (const YamlNode* writes = node.Find("writes")) {
      auto w = reader_.Choice<AliasWrites>(*writes, "alias write handling",
                                           {{"ignore", AliasWrites::kIgnore}, {"forward", AliasWrites::kForward}});
      if (!w) return false;
      range.writes = *w;
    }
    if (const YamlNode* enabled = node.Find("enabled_by")) {
      auto text = reader_.Text(*enabled, "enabled_by");
      if (!text) return false;
      size_t dot = text->find('.');
      FieldRef ref{*text, {}, {}, kUnresolved, kUnresolved, enabled->loc};
      if (dot != std::string::npos) {
        ref.register_name = text->substr(0, dot);
        ref.field_name = text->substr(dot + 1);
      }
      if (dot == std::string::npos || !IsIdentifier(ref.register_name) || !IsFieldName(ref.field_name)) {
        reader_.Error(*enabled, "enabled_by '" + *text + "' must be REGISTER.FIELD (e.g. PCICMD.MSE)");
        return false;
      }
      range.enabled_by = std::move(ref);
    }
    return true;
  }

  // `let: {NAME: EXPR, ...}`; the checker compiles them.
  void ReadLets(const YamlNode& node, const std::optional<InstanceName>& instance) {
    if (!node.IsMap()) {
      reader_.Error(node, std::string("expected `let:` as a mapping NAME: EXPRESSION, got ") + DescribeKind(node.kind));
      return;
    }
    for (size_t i = 0; i < node.MapSize(); ++i) {
      auto name = reader_.Identifier(node.MapKey(i), "let name");
      auto text = reader_.Text(node.MapValue(i), "let expression");
      if (!name || !text) continue;
      db_.lets.push_back({*name, node.MapValue(i), node.MapKey(i).loc, instance, std::nullopt});
    }
  }

  void ReadBehaviour(const YamlNode& node, std::optional<InstanceName> instance = std::nullopt) {
    if (!node.IsMap()) {
      reader_.Error(node, std::string("expected a behaviour as a mapping, got ") + DescribeKind(node.kind));
      return;
    }
    if (node.Find(kForEachKey) != nullptr) {
      for (const YamlNode& copy : ExpandBehaviourTable(node, reader_)) ReadBehaviour(copy, instance);
      return;
    }
    const YamlNode* kind = reader_.Required(node, "kind", "behaviour");
    if (!kind) return;
    auto text = reader_.Text(*kind, "behaviour kind");
    if (!text) return;
    if (!IsBehaviourKind(*text)) {
      reader_.ReportBadChoice(*kind, "behaviour kind", *text, BehaviourKindNames());
      return;
    }
    BehaviourSpec spec{*text, *text, node, node.loc, kind->loc, /*config=*/nullptr, /*instance=*/std::nullopt, {}};  // the checker sets it
    if (const YamlNode* name = node.Find("name")) {
      auto id = reader_.Identifier(*name, "behaviour name");
      if (!id) return;
      spec.name = *id;
    }
    if (instance) {
      spec.local_name = spec.name;
      spec.name = instance->instance + "_" + spec.name;
      spec.instance = std::move(instance);
    }
    db_.behaviours.push_back(std::move(spec));
  }

  const DocumentContext& context_;
  Database& db_;
  SchemaReader& reader_;
  std::string file_ref_;
};

}  // namespace

void ReadPciBar(const YamlNode& bar, Space& space, SchemaReader& reader) {
  // A BAR holds memory or I/O: a configuration or MSR space is never one.
  if (space.kind != SpaceKind::kMmio && space.kind != SpaceKind::kMemory) {
    reader.Error(bar, "pci_bar is only for mmio and memory spaces");
  } else if (auto index = reader.Unsigned(bar, "pci_bar", 0, 5)) {
    space.pci_bar = static_cast<unsigned>(*index);
    space.pci_bar_loc = bar.loc;
  }
}

std::vector<IncludeRequest> ReadDocument(const YamlNode& document, const DocumentContext& context, Database& database,
                                         SchemaReader& reader) {
  return DocumentReader(context, database, reader).Read(document);
}

}  // namespace regemu::regdb
