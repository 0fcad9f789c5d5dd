// REG.FIELD in scripts: fields resolved when the script is parsed (with
// "did you mean" and range checks), reads and expectations of a field's
// value, writes as a read-modify-write through the frontdoor, and failed
// expectations that name the fields that differ.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/script_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::_;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using regdb::testing_support::ErrorAt;
using script_testing::FieldDevice;
using script_testing::ParseFields;

RegisterId Reg(std::string_view name) { return *FieldDevice().model->FindRegister(name); }

regdb::Diagnostic OnlyError(const std::string& text) {
  Script script = ParseFields(text);
  EXPECT_EQ(script.diagnostics.error_count(), 1u) << script.FormatErrors();
  return script.diagnostics.all().empty() ? regdb::Diagnostic{} : script.diagnostics.all().front();
}

struct Ran : script_testing::Ran {
  uint64_t Value(std::string_view reg) const { return device->PeekRegister(Reg(reg)); }
  // The frontdoor accesses the run made, in order.
  std::vector<TraceEntry> Accesses() const {
    std::vector<TraceEntry> trace = device->Trace();
    std::erase_if(trace, [](const TraceEntry& e) { return e.op != TraceOp::kRead && e.op != TraceOp::kWrite; });
    return trace;
  }
};

// Runs `text` on a fresh field device; `setup` pokes state first (untraced).
Ran RunFields(const std::string& text, const std::vector<std::pair<std::string, uint64_t>>& setup = {},
              bool with_database = true) {
  Ran ran;
  ran.script = ParseFields(text);
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(FieldDevice().model);
  for (const auto& [reg, value] : setup) ran.device->PokeRegister(Reg(reg), value);
  ran.device->ClearViolations();
  RunOptions options;
  if (with_database) options.database = &FieldDevice().loaded.database;
  ran.result = RunScript(ran.script, *ran.device, options);
  return ran;
}

MATCHER_P(Access, op, "") { return arg.op == op; }
MATCHER_P2(WriteOf, offset, value, "") {
  return arg.op == TraceOp::kWrite && arg.offset == static_cast<uint64_t>(offset) &&
         arg.value == static_cast<uint64_t>(value);
}

// ------------------------------------------------------------------ parsing

TEST(ScriptFields, AFieldTargetIsItsRegisterWithTheFieldsBits) {
  Script script = ParseFields("expect32 UART_CTL.MODE 2\nwrite64 STAMP.EPOCH 0xbeef\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  const ScriptTarget& mode = script.commands[0].target;
  EXPECT_EQ(mode.reg, Reg("UART_CTL"));
  EXPECT_EQ(mode.offset, 0x0u);
  EXPECT_TRUE(mode.is_field());
  EXPECT_EQ(mode.field_mask, 0xCu);
  EXPECT_EQ(mode.field_shift, 2u);
  EXPECT_EQ(mode.display, "UART_CTL.MODE");
  EXPECT_EQ(script.commands[0].value, 2u);
  EXPECT_EQ(script.commands[0].mask, 0x3u);  // the field's bits, shifted down
  const ScriptTarget& epoch = script.commands[1].target;
  EXPECT_EQ(epoch.field_mask, 0xFFFF'0000'0000'0000u);
  EXPECT_EQ(epoch.field_shift, 48u);
  EXPECT_EQ(script.commands[1].value, 0xBEEFu);
}

TEST(ScriptFields, AnUnknownFieldIsAnErrorAtTheFieldWithTheClosestName) {
  EXPECT_THAT(OnlyError("expect32 UART_CTL.ENABEL 1\n"),
              ErrorAt(1, 19, "register 'UART_CTL' has no field 'ENABEL' (did you mean 'ENABLE'?)"));
  EXPECT_THAT(OnlyError("write32 UART_CLT.ENABLE 1\n"),
              ErrorAt(1, 9, "unknown register 'UART_CLT' in 'UART_CLT.ENABLE' (did you mean 'UART_CTL'?)"));
  EXPECT_THAT(OnlyError("read32 ID.VALUE\n"),
              ErrorAt(1, 11, "register 'ID' has no fields: name the whole register"));
  // A space name does not take a field.
  EXPECT_THAT(OnlyError("read32 mmio.X\n"), ErrorAt(1, 8, HasSubstr("unknown register 'mmio'")));
}

TEST(ScriptFields, AValueOrMaskOutsideTheFieldIsAnErrorAtIt) {
  EXPECT_THAT(OnlyError("write32 UART_CTL.MODE 4\n"),
              ErrorAt(1, 23, "VALUE 0x4 does not fit UART_CTL.MODE, 2 bits wide (0 to 0x3)"));
  EXPECT_THAT(OnlyError("expect32 UART_CTL.ENABLE 2\n"),
              ErrorAt(1, 26, "VALUE 0x2 does not fit UART_CTL.ENABLE, 1 bit wide (0 to 0x1)"));
  EXPECT_THAT(OnlyError("expect32 UART_CTL.MODE 1 mask 0x4\n"),
              ErrorAt(1, 31, HasSubstr("mask 0x4 does not fit UART_CTL.MODE")));
  EXPECT_THAT(OnlyError("poll32 UART_CTL.MODE 2 mask 1 timeout 1us\n"),
              ErrorAt(1, 22, "VALUE 0x2 has bits outside mask 0x1: they would never be compared"));
  // A 64-bit field takes any 64-bit value.
  EXPECT_TRUE(ParseFields("write64 STAMP.COUNT 0xffff_ffff_ffff\n").ok());
  EXPECT_THAT(OnlyError("write64 STAMP.COUNT 0x1_0000_0000_0000\n"), ErrorAt(1, 21, HasSubstr("48 bits wide")));
}

TEST(ScriptFields, AFieldOutsideANarrowerAccessIsAnError) {
  EXPECT_THAT(OnlyError("expect32 STAMP.EPOCH 1\n"),
              ErrorAt(1, 16, "field 'EPOCH' of 'STAMP' (bits 63:48) lies outside a 32-bit access, which reaches bits "
                             "31:0 (use a wider command)"));
  EXPECT_TRUE(ParseFields("expect16 UART_CTL.RXCOUNT 0\nread8 UART_CTL.ENABLE\n").ok());
}

TEST(ScriptFields, AWriteOnlyFieldCannotBeReadButCanBePeeked) {
  EXPECT_THAT(OnlyError("expect8 DOORBELL.RING 1\n"),
              ErrorAt(1, 18, "field 'RING' of 'DOORBELL' (bits 7:0) is write-only: a read returns 0 for it (peek8 "
                             "shows what was written)"));
  EXPECT_THAT(OnlyError("poll32 KEYS.LO 1 timeout 1us\n"), ErrorAt(1, 13, HasSubstr("is write-only")));
  EXPECT_TRUE(ParseFields("peek8 DOORBELL.RING\npoke32 KEYS.LO 5\n").ok());
}

TEST(ScriptFields, AFieldWriteThatWouldLoseWriteOnlyBitsIsAnError) {
  // KEYS.HI cannot be read back: writing LO by read-modify-write would write 0 there.
  EXPECT_THAT(OnlyError("write32 KEYS.LO 1\n"),
              ErrorAt(1, 14, "register 'KEYS' has write-only bits outside field 'LO' (HI): a read-modify-write "
                             "cannot read them back; write the whole register"));
}

TEST(ScriptFields, AMaskedRegistersFieldIsWrittenWithA32BitAccess) {
  EXPECT_THAT(OnlyError("write16 FW_REQ.KERNEL 1\n"),
              ErrorAt(1, 16, HasSubstr("'FW_REQ' is a masked register: a field write sets its bits with their "
                                       "enables in bits 31:16, a 32-bit access")));
}

// ------------------------------------------------------------------ running

TEST(ScriptFields, ReadsAndExpectsCompareTheFieldsValue) {
  Ran ran = RunFields("read32 UART_CTL.MODE\nexpect32 UART_CTL.MODE 2\nexpect32 UART_CTL.DIV 0x1234\n"
                      "expect32 UART_CTL.MODE 0 mask 1\npeek32 UART_CTL.DIV\n",
                      {{"UART_CTL", 0x1234'0009}});
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.values, ElementsAre(Field(&ScriptValue::text, "read32 UART_CTL.MODE = 2(FAST)"),
                                             Field(&ScriptValue::text, "peek32 UART_CTL.DIV = 0x1234")));
}

TEST(ScriptFields, AFieldWriteIsAReadThenAWriteOfTheWholeRegister) {
  // DIV=0x1234, RXCOUNT=0x55 (clear on read), MODE=1, ENABLE=1.
  Ran ran = RunFields("write32 UART_CTL.MODE 2\n", {{"UART_CTL", 0x1234'5505}});
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  // Written: what was read with MODE changed (and NACK, write-0-to-clear, as 1: left alone).
  EXPECT_THAT(ran.Accesses(), ElementsAre(Access(TraceOp::kRead), WriteOf(0x0, 0x1234'5589)));
  // The read's side effect happened, as for a driver: RXCOUNT was cleared.
  EXPECT_EQ(ran.Value("UART_CTL"), 0x1234'0009u);
}

TEST(ScriptFields, AFieldWriteLeavesWriteToActStatusBitsAlone) {
  // ERR (w1c) and NACK (w0c) are set: written back as read, ERR would be
  // cleared and a `hazard`; written as 0, NACK would be cleared.
  Ran ran = RunFields("write32 UART_CTL.ENABLE 1\n", {{"UART_CTL", 0xC0}});
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.violations, IsEmpty());
  EXPECT_THAT(ran.Accesses(), ElementsAre(Access(TraceOp::kRead), WriteOf(0x0, 0x81)));
  EXPECT_EQ(ran.Value("UART_CTL"), 0xC1u);
  // Writing the status field itself acts on it.
  Ran ack = RunFields("write32 UART_CTL.ERR 1\n", {{"UART_CTL", 0xC0}});
  EXPECT_EQ(ack.Value("UART_CTL"), 0x80u);
}

TEST(ScriptFields, AMaskedFieldWriteIsOneWriteWithItsEnables) {
  Ran ran = RunFields("write32 FW_REQ.FALLBACK 1\nwrite32 FW_REQ.KERNEL 1\nwrite32 FW_REQ.FALLBACK 0\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.Accesses(), ElementsAre(WriteOf(0xc, 0x8000'8000), WriteOf(0xc, 0x0001'0001),
                                          WriteOf(0xc, 0x8000'0000)));
  EXPECT_EQ(ran.Value("FW_REQ"), 0x1u);
}

TEST(ScriptFields, AWriteOnlyRegisterThatIsOneFieldIsWrittenWithoutARead) {
  Ran ran = RunFields("write8 DOORBELL.RING 0x2a\npeek8 DOORBELL.RING\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.violations, IsEmpty()) << "no write-only read";
  EXPECT_THAT(ran.Accesses(), ElementsAre(WriteOf(0x4, 0x2a)));
  EXPECT_THAT(ran.result.values, ElementsAre(Field(&ScriptValue::text, "peek8 DOORBELL.RING = 0x2a")));
}

TEST(ScriptFields, AFieldOfA64BitRegister) {
  Ran ran = RunFields("write64 STAMP.EPOCH 0xbeef\nexpect64 STAMP 0xbeef_0000_0000_0007\nexpect64 STAMP.COUNT 7\n"
                      "expect64 STAMP.COUNT 7 mask 0xff\n",
                      {{"STAMP", 7}});
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.Accesses(), ElementsAre(Access(TraceOp::kRead), WriteOf(0x10, 0xBEEF'0000'0000'0007), _, _, _));
}

TEST(ScriptFields, APokeOfAFieldKeepsTheOtherBitsByTheBackdoor) {
  Ran ran = RunFields("poke32 UART_CTL.RXCOUNT 0x7f\npoke32 KEYS.LO 0x1234\n", {{"UART_CTL", 0x1234'0001}});
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.Accesses(), IsEmpty());
  EXPECT_EQ(ran.Value("UART_CTL"), 0x1234'7f01u);
  EXPECT_EQ(ran.Value("KEYS"), 0x1234u);
}

TEST(ScriptFields, APollOnAFieldWaitsForTheFieldsValue) {
  // TICKS counts up every 100ns; LOW is bits 7:0.
  Ran ran = RunFields("poll32 TICKS.LOW 3 timeout 1us\nexpect32 TICKS 3\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.device->now_ns(), 300u);
  Ran timeout = RunFields("poll32 TICKS.HIGH 1 timeout 200ns\n");
  EXPECT_THAT(timeout.result.failures,
              ElementsAre(Field(&ScriptFailure::message,
                                "poll timed out after 200ns of virtual time and 21 read(s): TICKS.HIGH read 0, "
                                "expected 1 (TICKS = 0x00000002)")));
}

// ------------------------------------------------------ failed expectations

TEST(ScriptFields, AFailedFieldExpectNamesTheFieldAndItsEnumeratedValues) {
  Ran ran = RunFields("expect32 UART_CTL.MODE 1\nexpect32 UART_CTL.DIV 0x10 mask 0xf0\n", {{"UART_CTL", 0x0008}});
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message, "expectation failed: UART_CTL.MODE read 2(FAST), expected "
                                                         "1(SLOW) (UART_CTL = 0x00000008)"),
                          Field(&ScriptFailure::message, "expectation failed: UART_CTL.DIV read 0, expected 0x10 "
                                                         "under mask 0xf0 (UART_CTL = 0x00000008)")));
}

TEST(ScriptFields, AFailedRegisterExpectNamesEachFieldThatDiffers) {
  Ran ran = RunFields("expect32 UART_CTL 0x1234_0005\n", {{"UART_CTL", 0x1230'0009}});
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message,
                                "expectation failed: UART_CTL read 0x12300009, expected 0x12340005: DIV=0x1230, "
                                "expected 0x1234; MODE=2(FAST), expected 1(SLOW)")));
  EXPECT_EQ(FormatScriptFailure(ran.script, ran.result.failures[0]),
            "test.script:1:1: error: expectation failed: UART_CTL read 0x12300009, expected 0x12340005: DIV=0x1230, "
            "expected 0x1234; MODE=2(FAST), expected 1(SLOW)\n"
            " 1 | expect32 UART_CTL 0x1234_0005\n"
            "   | ^\n");
}

TEST(ScriptFields, OnlyTheComparedBitsOfAFieldCount) {
  // Under mask 0xf: DIV differs but is not compared; MODE is.
  Ran ran = RunFields("expect32 UART_CTL 0x4 mask 0xf\nexpect8 mmio 0x2 0x35\n", {{"UART_CTL", 0x1234'0008}});
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message, HasSubstr("under mask 0x0000000f: MODE=2(FAST), expected "
                                                                   "1(SLOW)")),
                          // A byte of DIV, read by offset: the field's compared bits, in its own units.
                          Field(&ScriptFailure::message, "expectation failed: mmio 0x2 (UART_CTL) read 0x34, "
                                                         "expected 0x35: DIV=0x34, expected 0x35")));
}

TEST(ScriptFields, WithoutTheDatabaseValuesAreUnnamed) {
  Ran ran = RunFields("expect32 UART_CTL.MODE 1\n", {{"UART_CTL", 0x0008}}, /*with_database=*/false);
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message, "expectation failed: UART_CTL.MODE read 2, expected 1 "
                                                         "(UART_CTL = 0x00000008)")));
}

}  // namespace
}  // namespace regemu::emulator
