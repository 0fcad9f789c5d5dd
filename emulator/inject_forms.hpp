#pragma once
// The `inject` verbs a behaviour takes and the shape of their arguments,
// declared by its program (BehaviourProgram::InjectForms). One table read
// by everything that needs to know them: the script parser refuses a verb
// no behaviour declares, `regemu show --injects` lists them, and the
// fuzzers fill their arguments. A behaviour's Inject takes exactly the
// verbs its program declares and checks the arguments itself when the
// inject runs (names a table cannot hold, such as a buffer that must fit a
// space, stay its own).

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace regemu::emulator {

class Model;

struct InjectArgument {
  enum class Kind : uint8_t {
    kWord,      // exactly `text` (on, message, push)
    kNumber,    // an unsigned number from `min` to `max`, decimal or 0x hex
    kFraction,  // a decimal with up to 3 places, `min` to `max` in thousandths
    kDuration,  // a duration (86us)
    kChoice,    // one of `choices` (an engine's or an event's name, on|off)
    kBytes,     // a number or a "quoted string" of bytes
  };
  Kind kind = Kind::kNumber;
  std::string text;  // kWord: the word; else what usage calls it (BIT, ENGINE)
  uint64_t min = 0;
  uint64_t max = ~uint64_t{0};
  std::vector<std::string> choices;  // kChoice
  bool optional = false;             // may be left off, with the required ones after it

  static InjectArgument Word(std::string word) { return {Kind::kWord, std::move(word), 0, 0, {}, false}; }
  static InjectArgument Number(std::string name, uint64_t min = 0, uint64_t max = ~uint64_t{0}) {
    return {Kind::kNumber, std::move(name), min, max, {}, false};
  }
  static InjectArgument Fraction(std::string name, uint64_t max_thousandths) {
    return {Kind::kFraction, std::move(name), 0, max_thousandths, {}, false};
  }
  static InjectArgument Duration(std::string name) { return {Kind::kDuration, std::move(name), 0, 0, {}, false}; }
  // `name` "" shows the choices themselves (on|off).
  static InjectArgument Choice(std::string name, std::vector<std::string> choices) {
    return {Kind::kChoice, std::move(name), 0, 0, std::move(choices), false};
  }
  static InjectArgument Bytes(std::string name, uint64_t max) {
    return {Kind::kBytes, std::move(name), 0, max, {}, false};
  }
  InjectArgument Optional() && {
    optional = true;
    return std::move(*this);
  }
  // A number from `min` to `max`: kNumber, kFraction (in thousandths), kBytes.
  bool ranged() const { return kind == Kind::kNumber || kind == Kind::kFraction || kind == Kind::kBytes; }
};

struct InjectForm {
  std::string verb;
  std::vector<InjectArgument> arguments;
  // arguments[repeat_from, repeat_from + repeat_count) come one or more
  // times (fifo's BYTES..., oa-load's SIGNAL VALUE pairs); none when 0.
  size_t repeat_from = 0;
  size_t repeat_count = 0;
  std::string doc;  // what it does, one sentence
};

// What a script line of the form looks like: "irq ENGINE DATA",
// "event NAME COUNT [se S] [instance I]", "serial_in BYTES...".
std::string InjectUsage(const InjectForm& form);

// A kFraction argument's value (in thousandths) as a script writes it: 0.250.
std::string FractionText(uint64_t thousandths);

// An argument at its smallest, as a script writes it: the word, the first
// choice, the least number (a fraction as 0.250), 1us. Nothing for a choice
// the table leaves open (a name only a test knows, pm4's memory space).
std::optional<std::string> SmallestArgument(const InjectArgument& argument);

// The form's required arguments at their smallest, what repeats once and
// optional groups left off: a line every behaviour declaring the form must
// take. Nothing when one argument has no smallest.
std::optional<std::vector<std::string>> SmallestArguments(const InjectForm& form);

// One inject form with the behaviour that declares it.
struct DeclaredInject {
  InjectForm form;
  uint32_t behaviour = 0;  // index into Model::behaviours()
};

// Every form the model's behaviours declare, in behaviour order.
std::vector<DeclaredInject> DeclaredInjects(const Model& model);

}  // namespace regemu::emulator
