#include "tools/convert/svd_access.hpp"

#include <array>
#include <utility>

#include "tools/convert/svd_document.hpp"

namespace regemu::convert {

namespace {

using regdb::ReadEffect;
using regdb::WriteEffect;

struct AccessWord {
  std::string_view word;
  ReadEffect read;
  WriteEffect write;
};
constexpr std::array kAccessWords{
    AccessWord{"read-only", ReadEffect::kValue, WriteEffect::kIgnore},
    AccessWord{"read-write", ReadEffect::kValue, WriteEffect::kStore},
    AccessWord{"write-only", ReadEffect::kWriteOnly, WriteEffect::kStore},
    AccessWord{"writeOnce", ReadEffect::kWriteOnly, WriteEffect::kStoreOnce},
    AccessWord{"read-writeOnce", ReadEffect::kValue, WriteEffect::kStoreOnce},
};

constexpr std::array kWriteWords{
    std::pair{std::string_view("oneToClear"), WriteEffect::kOneClears},
    std::pair{std::string_view("oneToSet"), WriteEffect::kOneSets},
    std::pair{std::string_view("oneToToggle"), WriteEffect::kOneToggles},
    std::pair{std::string_view("zeroToClear"), WriteEffect::kZeroClears},
    std::pair{std::string_view("zeroToSet"), WriteEffect::kZeroSets},
    std::pair{std::string_view("zeroToToggle"), WriteEffect::kZeroToggles},
    std::pair{std::string_view("clear"), WriteEffect::kClearAll},
    std::pair{std::string_view("set"), WriteEffect::kSetAll},
};

constexpr std::array kReadWords{
    std::pair{std::string_view("clear"), ReadEffect::kValueThenClear},
    std::pair{std::string_view("set"), ReadEffect::kValueThenSet},
};

std::optional<regdb::Access> PolicyWithEffects(ReadEffect read, WriteEffect write) {
  for (const regdb::AccessInfo& info : regdb::AllAccessPolicies()) {
    if (info.read == read && info.write == write) return info.access;
  }
  return std::nullopt;
}

// Side effects a hardware designer gives to bits that hardware also sets:
// write-1-to-clear status bits and friends.
bool WriteActsOnHardwareState(WriteEffect write) {
  return write != WriteEffect::kStore && write != WriteEffect::kStoreOnce && write != WriteEffect::kIgnore;
}

// The three words as CMSIS-SVD.xsd spells them, read case-insensitively
// (a word that differs only in case keeps a note); an unknown word is kept
// as it is, for the error to name it.
SvdAccessText Canonical(const SvdAccessText& svd, std::vector<std::string>& notes) {
  SvdAccessText out = svd;
  auto canonical = [&](std::string& text, std::initializer_list<std::string_view> words, std::string_view what) {
    std::string note;
    if (std::optional<std::string> word = CanonicalSvdWord(text, words, what, note)) text = *word;
    if (!note.empty()) notes.push_back(std::move(note));
  };
  canonical(out.access, {"read-only", "read-write", "write-only", "writeOnce", "read-writeOnce"}, "access");
  if (!out.modified_write_values.empty()) {
    canonical(out.modified_write_values,
              {"oneToClear", "oneToSet", "oneToToggle", "zeroToClear", "zeroToSet", "zeroToToggle", "clear", "set",
               "modify"},
              "modifiedWriteValues");
  }
  if (!out.read_action.empty()) canonical(out.read_action, {"clear", "set", "modify", "modifyExternal"}, "readAction");
  return out;
}

}  // namespace

bool IsSvdAccessWord(std::string_view word) {
  for (const AccessWord& a : kAccessWords) {
    if (a.word == word) return true;
  }
  return false;
}

ImportedPolicy PolicyFromSvd(const SvdAccessText& given, std::string& error) {
  ImportedPolicy out;
  const SvdAccessText svd = Canonical(given, out.notes);
  const AccessWord* access = nullptr;
  for (const AccessWord& a : kAccessWords) {
    if (a.word == svd.access) access = &a;
  }
  if (!access) {
    error = "unknown access '" + svd.access + "' (read-only, write-only, read-write, writeOnce, read-writeOnce)";
    return out;
  }
  ReadEffect read = access->read;
  WriteEffect write = access->write;

  const std::string& mwv = svd.modified_write_values;
  if (!mwv.empty()) {
    bool known = mwv == "modify";
    for (const auto& [word, effect] : kWriteWords) {
      if (word != mwv) continue;
      known = true;
      if (write == WriteEffect::kIgnore) {
        out.notes.push_back("modifiedWriteValues " + mwv + " on a read-only field: no write reaches it");
      } else if (write == WriteEffect::kStoreOnce) {
        out.notes.push_back("modifiedWriteValues " + mwv + " with " + svd.access +
                            ": regemu has no write-once policy that also " + mwv + "; kept as write-once");
      } else {
        write = effect;
      }
    }
    if (!known) {
      error = "unknown modifiedWriteValues '" + mwv +
              "' (oneToClear, oneToSet, oneToToggle, zeroToClear, zeroToSet, zeroToToggle, clear, set, modify)";
      return out;
    }
    if (mwv == "modify") {
      out.is_volatile = true;
      out.notes.push_back("modifiedWriteValues modify: hardware changes the value after a write in a way SVD does "
                          "not say; stored as written (volatile)");
    }
  }

  const std::string& action = svd.read_action;
  if (!action.empty()) {
    bool known = action == "modify" || action == "modifyExternal";
    for (const auto& [word, effect] : kReadWords) {
      if (word != action) continue;
      known = true;
      if (read == ReadEffect::kWriteOnly) {
        out.notes.push_back("readAction " + action + " on a write-only field: it cannot be read");
      } else {
        read = effect;
      }
    }
    if (!known) {
      error = "unknown readAction '" + action + "' (clear, set, modify, modifyExternal)";
      return out;
    }
    if (action == "modify" || action == "modifyExternal") {
      out.is_volatile = true;
      out.notes.push_back("readAction " + action + ": a read changes " +
                          std::string(action == "modify" ? "the value" : "state outside the register") +
                          " in a way SVD does not say; regemu reads it without a side effect (volatile)");
    }
  }

  if (std::optional<regdb::Access> exact = PolicyWithEffects(read, write)) {
    out.access = *exact;
  } else if (std::optional<regdb::Access> no_read_effect = PolicyWithEffects(
                 read == ReadEffect::kWriteOnly ? read : ReadEffect::kValue, write)) {
    out.access = *no_read_effect;
    out.notes.push_back("readAction " + action + " together with modifiedWriteValues " + mwv +
                        ": no regemu policy does both; the read side effect is not modelled");
  } else {
    // Write-only with a write-1/0 effect: readable in regemu, or lose the effect.
    out.access = *PolicyWithEffects(ReadEffect::kValue, write);
    out.notes.push_back(svd.access + " with modifiedWriteValues " + mwv +
                        ": regemu has no write-only form of it; the field reads back its value");
  }
  // A read-only bit in a peripheral register is status that hardware drives,
  // as are the bits software clears or sets by writing 1s and 0s.
  const regdb::AccessInfo& info = regdb::Info(out.access);
  if (!info.writable() && info.readable()) out.is_volatile = true;
  if (WriteActsOnHardwareState(info.write) || info.read_has_side_effect()) out.is_volatile = true;
  return out;
}

std::optional<SvdAccessText> SvdFromPolicy(regdb::Access access, std::string& note) {
  const regdb::AccessInfo& info = regdb::Info(access);
  if (info.read == ReadEffect::kZero) return std::nullopt;
  SvdAccessText out;
  WriteEffect base_write = info.write;
  for (const auto& [word, effect] : kWriteWords) {
    if (effect == info.write) {
      out.modified_write_values = std::string(word);
      base_write = WriteEffect::kStore;
    }
  }
  if (base_write == WriteEffect::kDiscard) {
    base_write = WriteEffect::kIgnore;
    note = std::string(info.name) + " is read-only to SVD (a write is no mistake in regemu)";
  }
  if (access == regdb::Access::kHw) note = "hw is read-only to SVD (its value comes from a behaviour)";
  ReadEffect base_read = info.read;
  for (const auto& [word, effect] : kReadWords) {
    if (effect == info.read) {
      out.read_action = std::string(word);
      base_read = ReadEffect::kValue;
    }
  }
  for (const AccessWord& a : kAccessWords) {
    if (a.read == base_read && a.write == base_write) out.access = std::string(a.word);
  }
  // rc and rs: read-only with a read action, nothing for a write to modify.
  if (out.access.empty() && base_write == WriteEffect::kIgnore) out.access = "read-only";
  return out;
}

}  // namespace regemu::convert
