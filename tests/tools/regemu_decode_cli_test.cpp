// `regemu decode DB REG VALUE`: a value split into the register's fields,
// with enumerated values named and odd bits flagged, as text or JSON; a bad
// value is a usage error (2), an unknown register exit 1 with the nearest.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/tools/cli_support.hpp"

namespace {

using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

std::map<std::string, uint64_t> FieldValues(const nlohmann::json& decoded) {
  std::map<std::string, uint64_t> values;
  for (const nlohmann::json& field : decoded["fields"]) values[field["name"]] = field["value"].get<uint64_t>();
  return values;
}

// yaml/icl/pci.yaml: PCICMD is IOSE 0, MSE 1, BME 2, SCE 3, MWIE 4, VGASNOOP 5,
// PERE 6, WCC 7, SERRE 8, FB2B 9, INTDIS 10, RSVD 15:11. 0x0406 is bits 1, 2, 10.
TEST(RegemuDecodeCli, SplitsPcicmdIntoItsFields) {
  CliResult r = RunRegemu("decode yaml/icl PCICMD 0x0406");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("PCICMD (config 0x4, 16 bits) = 0x0406\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[15:11\\] +RSVD +0x0\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[10:10\\] +INTDIS +0x1\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[2:2\\] +BME +0x1\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[1:1\\] +MSE +0x1\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[0:0\\] +IOSE +0x0\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("!")));

  CliResult json = RunRegemu("decode yaml/icl PCICMD 1030 --json");  // 1030 is 0x0406
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json decoded = nlohmann::json::parse(json.out);
  EXPECT_EQ(decoded["value"], 0x406u);
  EXPECT_EQ(decoded["unfielded_set"], 0u);
  std::map<std::string, uint64_t> expected{{"IOSE", 0},  {"MSE", 1},      {"BME", 1},    {"SCE", 0},
                                           {"MWIE", 0},  {"VGASNOOP", 0}, {"PERE", 0},   {"WCC", 0},
                                           {"SERRE", 0}, {"FB2B", 0},     {"INTDIS", 1}, {"RSVD", 0}};
  EXPECT_EQ(FieldValues(decoded), expected);
}

// yaml/icl/interrupts.yaml: CLASS 18:16 names 0-4; bits 30, 26 and 19 are in no field.
TEST(RegemuDecodeCli, NamesEnumeratedValuesAndFlagsOddBits) {
  CliResult r = RunRegemu("decode yaml/icl GEN11_INTR_IDENTITY_REG0 0x80030001");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("\\[31:31\\] +DATA_VALID +0x1\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[18:16\\] +CLASS +0x3 COPY\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[15:0\\] +DATA +0x1\n"));

  CliResult odd = RunRegemu("decode yaml/icl GEN11_INTR_IDENTITY_REG0 0x40070000");
  ASSERT_EQ(odd.exit_code, 0) << odd.err;
  EXPECT_THAT(odd.out, ContainsRegex("\\[18:16\\] +CLASS +0x7  ! no enumerated value\n"));
  EXPECT_THAT(odd.out, HasSubstr("  ! bits 0x40000000 are set in no field (their policy: rsvd)\n"));

  CliResult mbz = RunRegemu("decode yaml/icl PCICMD 0x0800");
  EXPECT_THAT(mbz.out, ContainsRegex("\\[15:11\\] +RSVD +0x1  ! must be zero\n"));
}

// yaml/goldmont/pmu.yaml: IA32_PERFEVTSEL0 is 64 bits; 63:32 lie in no field
// and are must-be-zero.
TEST(RegemuDecodeCli, DecodesA64BitRegister) {
  CliResult r = RunRegemu("decode yaml/goldmont IA32_PERFEVTSEL0 0xffff0000004300c0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("IA32_PERFEVTSEL0 (msr 0x186, 64 bits) = 0xffff0000004300c0\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[7:0\\] +EVENT +0xc0\n"));
  EXPECT_THAT(r.out, ContainsRegex("\\[22:22\\] +EN +0x1\n"));
  EXPECT_THAT(r.out, HasSubstr("  ! bits 0xffff000000000000 are set in no field (their policy: mbz)\n"));

  CliResult json = RunRegemu("decode yaml/goldmont IA32_PERFEVTSEL0 0xffff0000004300c0 --json");
  nlohmann::json decoded = nlohmann::json::parse(json.out);
  EXPECT_EQ(decoded["value"].get<uint64_t>(), 0xffff0000004300c0u);
  EXPECT_EQ(decoded["unfielded_set"].get<uint64_t>(), 0xffff000000000000u);
  EXPECT_EQ(FieldValues(decoded)["UMASK"], 0u);
  EXPECT_EQ(FieldValues(decoded)["OS"], 1u);
}

TEST(RegemuDecodeCli, BadValuesAndUnknownRegistersFail) {
  CliResult typo = RunRegemu("decode yaml/icl PCICMD 0x04zz");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("'0x04zz' is not a value"));
  CliResult wide = RunRegemu("decode yaml/icl PCICMD 0x10000");
  EXPECT_EQ(wide.exit_code, 2);
  EXPECT_THAT(wide.err, HasSubstr("0x10000 does not fit PCICMD, a 16-bit register"));
  CliResult unknown = RunRegemu("decode yaml/icl PCICDM 0x0406");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_THAT(unknown.err, HasSubstr("yaml/icl has no register 'PCICDM' (did you mean 'PCICMD'?)"));
  EXPECT_EQ(RunRegemu("decode yaml/icl PCICMD").exit_code, 2);  // no value
}

}  // namespace
