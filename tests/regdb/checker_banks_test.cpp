// Split and banked registers (yaml/README.md, "Split and banked
// registers"): several registers at one place, each decoding some accesses
// while a condition holds. The checker proves no two decode one access, and
// every mistake in `decode` / `decode_when` is a located error.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/register_scope.hpp"
#include "tests/regdb/banked_uart.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;


TEST(BankedRegistersCheckTest, TheUartRegisterFileIsClean) {
  LoadedDatabase loaded = CheckYaml(regemu::testing_support::kBankedUart);
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Register* dll = loaded.database.RegisterNamed("DLL");
  ASSERT_NE(dll, nullptr);
  EXPECT_TRUE(dll->banked());
  ASSERT_TRUE(dll->decode_condition.has_value());
  EXPECT_EQ(dll->decode_condition->text(), "LCR.DLAB == 1");
  EXPECT_EQ(loaded.database.RegisterNamed("FCR")->decode, DecodeDirection::kWrite);
  EXPECT_FALSE(loaded.database.RegisterNamed("LCR")->banked());
}

// In a block, a register's decode_when reads its own instance's registers
// by their block names, or the device's by their full names; a mistake is
// reported once for the block's text, not per instance.
TEST(BankedRegistersCheckTest, ABlocksConditionReadsItsOwnInstance) {
  std::string yaml = R"y(device: uarts
spaces:
  - {name: io, kind: mmio, size: 0x20, widths: [8]}
registers:
  - {name: MODE, space: io, offset: 0x1F, width: 8, fields: [{name: LEGACY, bits: 0}]}
blocks:
  - name: uart
    space: io
    instances: {UART0: 0x0, UART1: 0x8}
    registers:
      - {name: RBR, offset: 0, width: 8, access: ro, decode: read, decode_when: "LCR.DLAB == 0"}
      - {name: DLL, offset: 0, width: 8, decode_when: "LCR.DLAB == 1 && MODE.LEGACY == 0"}
      - {name: LCR, offset: 3, width: 8, fields: [{name: DLAB, bits: 7}]}
)y";
  LoadedDatabase loaded = CheckYaml(yaml);
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  for (const char* instance : {"UART0", "UART1"}) {
    const Register* rbr = loaded.database.RegisterNamed(std::string(instance) + "_RBR");
    ASSERT_NE(rbr, nullptr);
    ASSERT_TRUE(rbr->decode_condition.has_value());
    ASSERT_EQ(rbr->decode_condition->operands().size(), 1u);
    EXPECT_EQ(loaded.database.registers[OperandRegister(rbr->decode_condition->operands()[0])].name,
              std::string(instance) + "_LCR");
  }
  std::string typo = yaml;
  typo.replace(typo.find("\"LCR.DLAB == 0\""), 15, "\"LRC.DLAB == 0\"");
  LoadedDatabase wrong = CheckYaml(typo);
  EXPECT_EQ(wrong.diagnostics.error_count(), 1u) << Rendered(wrong);
  EXPECT_THAT(wrong.diagnostics.all(), Contains(ErrorAt(11, 82, HasSubstr("unknown name 'LRC.DLAB'")))) << Rendered(wrong);
}

LoadedDatabase WithRegisters(const std::string& registers) {
  return CheckYaml(std::string(R"y(device: uart
spaces:
  - {name: io, kind: mmio, size: 8, widths: [8]}
registers:
  - name: LCR
    space: io
    offset: 3
    width: 8
    fields: [{name: WLS, bits: "1:0"}, {name: DLAB, bits: 7}]
  - {name: WIDE, space: io, offset: 4, width: 32}
)y") + registers);
}

TEST(BankedRegistersCheckTest, TwoRegistersDecodingOneReadAreAnErrorWithTheStateThatShowsIt) {
  // DLAB == 1 and WLS == 3 both hold when DLAB = 1, WLS = 3.
  LoadedDatabase loaded = WithRegisters(
      "  - {name: A, space: io, offset: 0, width: 8, decode_when: \"LCR.DLAB == 1\"}\n"
      "  - {name: B, space: io, offset: 0, width: 8, decode_when: \"LCR.WLS == 3\"}\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(12, 60, HasSubstr("registers 'A' and 'B' at io 0x0 both decode a read while "
                                                 "LCR.DLAB = 1, LCR.WLS = 3"))))
      << Rendered(loaded);
}

TEST(BankedRegistersCheckTest, DirectionsAloneCanSplitAPlace) {
  LoadedDatabase split = WithRegisters(
      "  - {name: R, space: io, offset: 0, width: 8, access: ro, decode: read}\n"
      "  - {name: W, space: io, offset: 0, width: 8, access: wo, decode: write}\n");
  EXPECT_FALSE(split.diagnostics.has_errors()) << Rendered(split);

  LoadedDatabase both_read = WithRegisters(
      "  - {name: R, space: io, offset: 0, width: 8, decode: read}\n"
      "  - {name: R2, space: io, offset: 0, width: 8, decode: read-write}\n");
  EXPECT_THAT(Rendered(both_read), HasSubstr("registers 'R' and 'R2' at io 0x0 both decode a read always"));
}

TEST(BankedRegistersCheckTest, APlainRegisterBesideABankedOneStillOverlapsIt) {
  LoadedDatabase loaded = WithRegisters(
      "  - {name: RBR, space: io, offset: 0, width: 8}\n"
      "  - {name: THR, space: io, offset: 0, width: 8, decode: write}\n");
  EXPECT_THAT(Rendered(loaded), HasSubstr("'RBR' has no 'decode' or 'decode_when', so it decodes every access there"));
}

TEST(BankedRegistersCheckTest, BankedRegistersShareOffsetAndWidth) {
  EXPECT_THAT(Rendered(WithRegisters("  - {name: A, space: io, offset: 0, width: 8, decode: read}\n"
                                     "  - {name: B, space: io, offset: 0, width: 16, decode: write}\n")),
              HasSubstr("shares its place with 'A' but is 16 bits wide, not 8"));
  EXPECT_THAT(Rendered(WithRegisters("  - {name: A, space: io, offset: 0, width: 16, decode: read}\n"
                                     "  - {name: B, space: io, offset: 1, width: 8, decode: write}\n")),
              HasSubstr("registers that share a place must start at the same offset"));
}

TEST(BankedRegistersCheckTest, ConditionsTooWideToTryAreRefusedNotGuessed) {
  LoadedDatabase loaded = WithRegisters(
      "  - {name: A, space: io, offset: 0, width: 8, decode_when: \"WIDE == 1\"}\n"
      "  - {name: B, space: io, offset: 0, width: 8, decode_when: \"WIDE == 2\"}\n");
  EXPECT_THAT(Rendered(loaded), HasSubstr("cannot be proven never to decode the same access: their conditions read "
                                          "32 bits, more than the 16 the checker tries exhaustively"));
}

TEST(BankedRegistersCheckTest, MistakesInTheNewKeysAreLocated) {
  LoadedDatabase unknown = WithRegisters(
      "  - {name: A, space: io, offset: 0, width: 8, decode_when: \"LCR.DLAD == 1\"}\n");
  EXPECT_THAT(unknown.diagnostics.all(),
              Contains(ErrorAt(11, 61, HasSubstr("unknown name 'LCR.DLAD' (did you mean 'LCR.DLAB'?)"))))
      << Rendered(unknown);

  LoadedDatabase never = WithRegisters(
      "  - {name: A, space: io, offset: 0, width: 8, decode_when: \"LCR.DLAB == 2\"}\n");
  EXPECT_THAT(Rendered(never), HasSubstr("is never true"));

  LoadedDatabase time = WithRegisters("  - {name: A, space: io, offset: 0, width: 8, decode_when: 2ms}\n");
  EXPECT_THAT(Rendered(time), HasSubstr("decode_when of register 'A' is a time, not a condition"));

  LoadedDatabase itself = WithRegisters(
      "  - name: A\n    space: io\n    offset: 0\n    width: 8\n    decode_when: \"A.SEL == 1\"\n"
      "    fields: [{name: SEL, bits: 0}]\n");
  EXPECT_THAT(Rendered(itself), HasSubstr("reads 'A' itself"));

  LoadedDatabase direction = WithRegisters("  - {name: A, space: io, offset: 0, width: 8, decode: reads}\n");
  EXPECT_THAT(direction.diagnostics.all(), Contains(ErrorAt(11, 55, HasSubstr("unknown decode 'reads' (did you mean 'read'?)"))));
  EXPECT_THAT(Rendered(direction), HasSubstr("read-write"));
}

}  // namespace
}  // namespace regemu::regdb
