// `kind: reactions` (yaml/README.md): triggers, conditions and actions in
// virtual time, and rules as violations, on a small controller shaped like
// NVMe's CC/CSTS ("CC.EN 0→1: the controller sets CSTS.RDY to 1 when it is
// ready", NVMe Base 2.0 §3.1.3.5).
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kController = R"y(device: ctrl
spaces:
  - {name: bar0, kind: mmio, size: 0x100}
  - {name: state, kind: state, size: 0x10}
  - {name: host, kind: memory, size: 0x10000}
registers:
  - name: CC
    space: bar0
    offset: 0x14
    fields:
      - {name: EN, bits: 0}
      - {name: SHN, bits: "15:14"}
  - name: CSTS
    space: bar0
    offset: 0x1c
    volatile: true
    fields:
      - {name: RDY, bits: 0, access: hw}
      - {name: SHST, bits: "3:2", access: hw}
  - {name: AQA, space: bar0, offset: 0x24}
  - {name: DB, space: bar0, offset: 0x40}
  - {name: COUNT, space: state, offset: 0x0}
)y";

std::unique_ptr<Device> Controller(const std::string& behaviours, DeviceOptions options = {}) {
  options.policy = ViolationPolicy::Lenient();
  return MakeDevice(std::string(kController) + "behaviours:\n" + behaviours, std::move(options));
}

class Regs {
 public:
  explicit Regs(Device& device) : device_(device) {}
  uint64_t operator()(const char* name) const { return device_.PeekRegister(RegisterNamed(device_.model(), name)); }
  void Write(const char* name, uint64_t value) { device_.WriteRegister(RegisterNamed(device_.model(), name), value); }
  uint64_t Read(const char* name) { return device_.ReadRegister(RegisterNamed(device_.model(), name)); }

 private:
  Device& device_;
};

constexpr const char* kReady = R"y(  - name: controller
    kind: reactions
    reactions:
      - name: enable
        on: {rise: CC.EN}
        do:
          - {after: 2ms, set: {CSTS.RDY: 1}}
      - name: disable
        on: {fall: CC.EN}
        do:
          - {cancel: enable}
          - {after: 1ms, set: {CSTS.RDY: 0}}
)y";

// "writing CC.EN = 1: CSTS.RDY becomes 1 after 2 ms", exactly then.
TEST(ReactionsTest, DelayedSetHappensAtItsInstant) {
  auto device = Controller(kReady);
  Regs regs(*device);
  regs.Write("CC", 1);
  EXPECT_EQ(device->next_event_ns(), 2'000'000u);
  device->Advance(1'999'999);
  EXPECT_EQ(regs("CSTS"), 0u);
  device->Advance(1);
  EXPECT_EQ(regs("CSTS"), 1u);
}

// EN toggled back before RDY rose cancels the pending set.
TEST(ReactionsTest, CancelStopsAPendingAction) {
  auto device = Controller(kReady);
  Regs regs(*device);
  regs.Write("CC", 1);
  device->Advance(1'000'000);
  regs.Write("CC", 0);
  device->Advance(10'000'000);
  EXPECT_EQ(regs("CSTS"), 0u);
  EXPECT_EQ(device->pending_events(), 0u);
}

// A write that does not change EN (EN already 1) triggers nothing.
TEST(ReactionsTest, RiseNeedsAChange) {
  auto device = Controller(kReady);
  Regs regs(*device);
  regs.Write("CC", 1);
  device->Advance(3'000'000);
  regs.Write("CC", 1 | (1 << 14));
  EXPECT_EQ(device->pending_events(), 0u);
}

// Set values are expressions over fields and the access's value.
TEST(ReactionsTest, SetTakesExpressions) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: shutdown
        on: {change: CC.SHN}
        when: "CC.SHN != 0"
        do:
          - {set: {CSTS.SHST: 1}}
          - {after: 5us, set: {CSTS.SHST: "CC.SHN + 1"}}
      - name: count
        on: {write: AQA}
        do:
          - {set: {COUNT: "COUNT + (value & 0xF)"}}
)y");
  Regs regs(*device);
  regs.Write("CC", 1u << 14);  // SHN = 01b
  EXPECT_EQ(regs("CSTS"), 1u << 2);
  device->Advance(5'000);
  EXPECT_EQ(regs("CSTS"), 2u << 2);
  regs.Write("AQA", 0x13);
  regs.Write("AQA", 0x05);
  EXPECT_EQ(regs("COUNT"), 3u + 5u);
}

// `change` with `to:` fires only when the field becomes that value.
TEST(ReactionsTest, ChangeToAValue) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: abrupt
        on: {change: CC.SHN, to: 2}
        do: [{set: {COUNT: "COUNT + 1"}}]
)y");
  Regs regs(*device);
  regs.Write("CC", 1u << 14);
  regs.Write("CC", 2u << 14);
  regs.Write("CC", 3u << 14);
  regs.Write("CC", 2u << 14);
  EXPECT_EQ(regs("COUNT"), 2u);
}

constexpr const char* kRules = R"y(  - name: rules
    kind: reactions
    ref: "NVMe Base 2.0 §3.1.3.5"
    reactions:
      - name: enable
        on: {rise: CC.EN}
        do: [{after: 2ms, set: {CSTS.RDY: 1}}]
      - name: disable
        on: {fall: CC.EN}
        do: [{cancel: enable}, {after: 1ms, set: {CSTS.RDY: 0}}]
    rules:
      - name: aqa_while_enabled
        on: {write: AQA}
        when: "CC.EN == 1"
        violation: "AQA may only be modified while CC.EN = 0"
      - name: enable_while_ready
        on: {rise: CC.EN}
        when: "CSTS.RDY == 1"
        violation: "CC.EN set to 1 while CSTS.RDY is still 1: wait for RDY = 0 after clearing EN"
      - name: doorbell_before_ready
        on: {write: DB}
        when: "CSTS.RDY == 0"
        violation: "a doorbell was written before CSTS.RDY = 1"
)y";

// The driver's mistakes the rules name, as `protocol` violations at the
// access that broke them, with the rule's text and reference.
TEST(ReactionsTest, RulesReportTheDriversMistakes) {
  auto device = Controller(kRules);
  Regs regs(*device);
  regs.Write("AQA", 0x001F001F);  // EN = 0: fine
  regs.Write("DB", 1);            // before ready
  regs.Write("CC", 1);
  regs.Write("AQA", 0x001F001F);  // while enabled
  device->Advance(2'000'000);
  regs.Write("DB", 1);            // ready now: fine
  regs.Write("CC", 0);
  regs.Write("CC", 1);            // RDY still 1 (it clears 1 ms after EN fell)
  std::vector<Violation> violations = device->violations();
  ASSERT_THAT(Kinds(*device), ElementsAre(ViolationKind::kProtocol, ViolationKind::kProtocol,
                                             ViolationKind::kProtocol));
  EXPECT_EQ(violations[0].register_name, "DB");
  EXPECT_THAT(violations[0].rule, HasSubstr("before CSTS.RDY = 1"));
  EXPECT_EQ(violations[1].register_name, "AQA");
  EXPECT_THAT(violations[1].rule, HasSubstr("NVMe Base 2.0 §3.1.3.5"));
  EXPECT_THAT(violations[1].rule, HasSubstr("rule 'aqa_while_enabled'"));
  EXPECT_THAT(violations[1].rule, HasSubstr("when CC.EN == 1"));
  EXPECT_EQ(violations[2].register_name, "CC");
  EXPECT_THAT(violations[2].rule, HasSubstr("still 1"));
}

// A correct sequence breaks no rule.
TEST(ReactionsTest, CorrectSequenceIsClean) {
  auto device = Controller(kRules);
  Regs regs(*device);
  regs.Write("AQA", 0x001F001F);
  regs.Write("CC", 1);
  device->Advance(2'000'000);
  regs.Write("DB", 1);
  regs.Write("CC", 0);
  device->Advance(1'000'000);
  regs.Write("CC", 1);
  EXPECT_THAT(device->violations(), IsEmpty());
}

// Conditions see the state the access left, before any reaction acts: a
// reaction setting RDY at once does not make the rule on the same rise fire.
TEST(ReactionsTest, ConditionsAreEvaluatedBeforeActions) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: instant_ready
        on: {rise: CC.EN}
        do: [{set: {CSTS.RDY: 1}}]
    rules:
      - name: enable_while_ready
        on: {rise: CC.EN}
        when: "CSTS.RDY == 1"
        violation: "CC.EN set while RDY = 1"
)y");
  Regs regs(*device);
  regs.Write("CC", 1);
  EXPECT_EQ(regs("CSTS"), 1u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

// More reactions on one register, and more targets in one set, than the
// inline lists of the access path hold (8): with and without conditions,
// every reaction fires once, in the database's order.
TEST(ReactionsTest, ManyReactionsOnOneRegisterAndManyTargetsInOneSet) {
  std::string yaml = "device: many\nspaces:\n  - {name: bus, kind: mmio, size: 0x100}\nregisters:\n"
                     "  - {name: GO, space: bus, offset: 0x0}\n  - {name: LOG, space: bus, offset: 0x4}\n";
  for (int i = 0; i < 10; ++i) {
    yaml += "  - {name: R" + std::to_string(i) + ", space: bus, offset: " + std::to_string(0x10 + 4 * i) + "}\n";
  }
  yaml += "behaviours:\n  - name: c\n    kind: reactions\n    reactions:\n";
  for (int i = 0; i < 10; ++i) {
    // Each appends its digit to LOG: the order they ran in. The odd ones
    // have a condition, so GO's reactions take the conditions-first path.
    yaml += "      - name: r" + std::to_string(i) + "\n        on: {write: GO}\n";
    if (i % 2 == 1) yaml += "        when: \"GO == 1\"\n";
    yaml += "        do: [{set: {LOG: \"LOG * 10 + " + std::to_string(i) + "\"}}]\n";
  }
  yaml += "      - name: fan_out\n        on: {write: LOG}\n        do:\n          - set: {";
  for (int i = 0; i < 10; ++i) yaml += std::string(i ? ", " : "") + "R" + std::to_string(i) + ": \"value + " + std::to_string(i) + "\"";
  yaml += "}\n";
  std::unique_ptr<Device> device = MakeDevice(yaml);
  Regs regs(*device);
  regs.Write("GO", 1);
  EXPECT_EQ(regs("LOG"), 123456789u);  // r0 first, r9 last
  regs.Write("LOG", 0x100);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(regs(("R" + std::to_string(i)).c_str()), 0x100u + static_cast<unsigned>(i)) << i;
  EXPECT_THAT(device->violations(), IsEmpty());
}

// A set triggers the reactions watching what it changed, in the same instant.
TEST(ReactionsTest, SetsChainToOtherReactions) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: ready
        on: {rise: CC.EN}
        do: [{set: {CSTS.RDY: 1}}]
      - name: on_ready
        on: {rise: CSTS.RDY}
        do: [{set: {COUNT: 7}}]
)y");
  Regs regs(*device);
  regs.Write("CC", 1);
  EXPECT_EQ(regs("COUNT"), 7u);
}

// A loop whose condition keeps it going is stopped at the bound, as an
// `unmodelled` violation (the database's mistake), never a hang.
TEST(ReactionsTest, ChainThatDoesNotSettleIsStopped) {
  auto device2 = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: kick
        on: {event: kick}
        do: [{set: {COUNT: 1}}]
      - name: ping
        on: {change: COUNT}
        when: "COUNT < 1000"
        do: [{set: {COUNT: "COUNT + 1"}}]
)y");
  EXPECT_EQ(device2->Inject("kick", {}), "");
  ASSERT_THAT(Kinds(*device2), ElementsAre(ViolationKind::kUnmodelled));
  EXPECT_THAT(device2->violations()[0].rule, HasSubstr("did not settle"));
  EXPECT_LT(Regs(*device2)("COUNT"), 1000u);
}

// Injected hardware events with arguments.
TEST(ReactionsTest, EventsTakeArguments) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: media
        on: {event: media-ready, args: [count, shift]}
        do: [{set: {COUNT: "count << shift"}}]
)y");
  EXPECT_EQ(device->Inject("media-ready", std::vector<std::string>{"3", "4"}), "");
  EXPECT_EQ(Regs(*device)("COUNT"), 48u);
  EXPECT_THAT(device->Inject("media-ready", std::vector<std::string>{"3"}), HasSubstr("takes 2 argument(s)"));
  EXPECT_THAT(device->Inject("media-ready", std::vector<std::string>{"3", "x"}), HasSubstr("shift"));
}

// Declared arguments: a number up to its max, a word by its index, a
// default for one left off; mistakes name the argument and the usage.
TEST(ReactionsTest, EventArgumentsHaveShapes) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: media
        on: {event: media-ready, args: [{name: count, max: 15}, {name: unit, words: {one: 1, ten: 10, hundred: 100}, default: ten}]}
        do: [{set: {COUNT: "count * unit"}}]
)y");
  EXPECT_EQ(device->Inject("media-ready", std::vector<std::string>{"3", "hundred"}), "");
  EXPECT_EQ(Regs(*device)("COUNT"), 300u);
  EXPECT_EQ(device->Inject("media-ready", std::vector<std::string>{"4"}), "");
  EXPECT_EQ(Regs(*device)("COUNT"), 40u);  // the default: ten
  EXPECT_THAT(device->Inject("media-ready", std::vector<std::string>{"16"}),
              AllOf(HasSubstr("bad count '16' (0..15)"), HasSubstr("usage: inject media-ready COUNT [one|ten|hundred]")));
  EXPECT_THAT(device->Inject("media-ready", std::vector<std::string>{"1", "thousand"}),
              HasSubstr("expected 'one', 'ten' or 'hundred', got 'thousand'"));
  EXPECT_THAT(device->Inject("media-ready", std::vector<std::string>{}), HasSubstr("takes 1 to 2 argument(s)"));
  // The declared form is what scripts, `regemu show` and the fuzzer read.
  std::vector<DeclaredInject> forms = DeclaredInjects(device->model());
  ASSERT_EQ(forms.size(), 1u);
  EXPECT_EQ(InjectUsage(forms[0].form), "media-ready COUNT [one|ten|hundred]");
  EXPECT_EQ(forms[0].form.arguments[0].max, 15u);
}

// Memory writes and messages.
TEST(ReactionsTest, WritesMemoryAndSendsMessages) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: post
        on: {write: DB}
        do:
          - {write_memory: {space: host, address: "0x100 + value * 4", width: 32, value: "0xC0DE0000 | value"}}
          - {message: {address: 0xFEE00000, data: "value"}}
)y");
  Regs regs(*device);
  regs.Write("DB", 3);
  uint8_t bytes[4] = {};
  device->ReadMemory(*device->model().FindSpace("host"), 0x10C, bytes);
  uint32_t word = uint32_t{bytes[0]} | (uint32_t{bytes[1]} << 8) | (uint32_t{bytes[2]} << 16) | (uint32_t{bytes[3]} << 24);
  EXPECT_EQ(word, 0xC0DE0003u);
  ASSERT_EQ(device->messages().size(), 1u);
  EXPECT_EQ(device->messages()[0].address, 0xFEE00000u);
  EXPECT_EQ(device->messages()[0].data, 3u);
}

// Reset empties the pending actions; a snapshot keeps them.
TEST(ReactionsTest, ResetAndSnapshot) {
  auto device = Controller(kReady);
  Regs regs(*device);
  regs.Write("CC", 1);
  DeviceSnapshot snapshot = device->Snapshot();
  device->Reset();
  device->Advance(5'000'000);
  EXPECT_EQ(regs("CSTS"), 0u);
  device->Restore(snapshot);
  device->Advance(2'000'000);
  EXPECT_EQ(regs("CSTS"), 1u);
}

// `cancel:` drops every pending action of the reaction named, wherever it
// sits in the event queue (not only the newest), and nothing of another
// reaction or of another reactions behaviour, whose reaction of the same
// index stays scheduled.
TEST(ReactionsTest, CancelDropsEveryPendingActionOfItsReactionOnly) {
  auto device = Controller(R"y(  - name: a
    kind: reactions
    reactions:
      - name: arm
        on: {write: AQA}
        do: [{after: 3ms, set: {COUNT: "COUNT + 1"}}]
      - name: other
        on: {write: DB}
        do: [{after: 4ms, set: {CSTS.SHST: 2}}]
      - name: disarm
        on: {rise: CC.EN}
        do: [{cancel: arm}]
  - name: b
    kind: reactions
    reactions:
      - name: tock
        on: {write: AQA}
        do: [{after: 5ms, set: {CSTS.RDY: 1}}]
)y");
  Regs regs(*device);
  regs.Write("AQA", 1);  // arm @3ms, tock @5ms
  regs.Write("DB", 1);   // other @4ms
  device->Advance(1'000'000);
  regs.Write("AQA", 2);  // arm @4ms, tock @6ms
  ASSERT_EQ(device->pending_events(), 5u);
  regs.Write("CC", 1);   // both arms go, from the middle of the queue
  EXPECT_EQ(device->pending_events(), 3u);
  EXPECT_EQ(device->next_event_ns(), 4'000'000u);
  device->Advance(3'000'000);  // t = 4ms: other
  EXPECT_EQ(regs("COUNT"), 0u);
  EXPECT_EQ(regs("CSTS"), 2u << 2);
  device->Advance(1'000'000);  // t = 5ms: b's first tock
  EXPECT_EQ(regs("CSTS"), (2u << 2) | 1u);
  EXPECT_EQ(device->pending_events(), 1u);
  device->Advance(10'000'000);
  EXPECT_EQ(regs("COUNT"), 0u);
  EXPECT_EQ(device->pending_events(), 0u);
}

// A delayed action's own `after` runs its actions later still, and a
// snapshot taken in between carries it: the queue alone says what is pending.
TEST(ReactionsTest, NestedDelaysSurviveASnapshot) {
  auto device = Controller(R"y(  - name: c
    kind: reactions
    reactions:
      - name: shutdown
        on: {change: CC.SHN, to: 1}
        do:
          - after: 1ms
            do:
              - {set: {CSTS.SHST: 1}}
              - {after: 2ms, set: {CSTS.SHST: 2}}
      - name: abort
        on: {rise: CC.EN}
        do: [{cancel: shutdown}]
)y");
  Regs regs(*device);
  regs.Write("CC", 1u << 14);
  device->Advance(1'000'000);
  EXPECT_EQ(regs("CSTS"), 1u << 2);
  DeviceSnapshot in_between = device->Snapshot();
  device->Advance(2'000'000);
  EXPECT_EQ(regs("CSTS"), 2u << 2);

  device->Restore(in_between);
  EXPECT_EQ(regs("CSTS"), 1u << 2);
  EXPECT_EQ(device->next_event_ns(), 3'000'000u);
  regs.Write("CC", (1u << 14) | 1u);  // the nested action is the shutdown's too
  EXPECT_EQ(device->pending_events(), 0u);
  device->Advance(5'000'000);
  EXPECT_EQ(regs("CSTS"), 1u << 2);
}

// `regemu run`'s printed trace keeps the script's injects, so it replays to
// the same state.
TEST(ReactionsTest, PrintedTraceReplaysInjects) {
  const std::string behaviours = R"y(  - name: c
    kind: reactions
    reactions:
      - name: media
        on: {event: media_ready, args: [count]}
        do: [{set: {COUNT: "COUNT + count"}}, {after: 1us, set: {CSTS.RDY: 1}}]
)y";
  auto device = Controller(behaviours);
  Script script = ParseScript("write32 AQA 1\ninject media_ready 5\nstep 2us\ninject media_ready 2\n", "s.script",
                              device->model());
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  RunResult result = RunScript(script, *device);
  ASSERT_TRUE(result.passed());
  std::string trace = RenderRunTrace(device->model(), device->Trace(), result.polls, result.injects);
  EXPECT_THAT(trace, HasSubstr("inject media_ready 5\n"));

  auto replayed = Controller(behaviours);
  Script again = ParseScript(trace, "trace.script", replayed->model());
  ASSERT_TRUE(again.ok()) << again.FormatErrors();
  ASSERT_TRUE(RunScript(again, *replayed).passed());
  Regs a(*device), b(*replayed);
  EXPECT_EQ(b("COUNT"), 7u);
  EXPECT_EQ(a("COUNT"), b("COUNT"));
  EXPECT_EQ(a("CSTS"), b("CSTS"));
  EXPECT_EQ(device->now_ns(), replayed->now_ns());
}

}  // namespace
}  // namespace regemu::emulator
