// `regemu convert amdgpu`'s reader on small inline headers: byte offsets
// and fields as the kernel computes them, and each kind of bad input a
// located error (file:line:col) with no map, or a bounded result.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tools/convert/amdgpu_reader.hpp"
#include "tools/convert/amdgpu_yaml_writer.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;

const std::vector<uint64_t> kBases = {0x2000, 0xA000};

constexpr const char* kOffsets = R"(/*
 * Copyright notice
 */
#ifndef _gc_test_OFFSET_HEADER
#define _gc_test_OFFSET_HEADER

// addressBlock: gc_grbmdec
// base address: 0x8000
#define regGRBM_CNTL                                   0x0000
#define regGRBM_CNTL_BASE_IDX                          0
#define regCP_PERFMON_CNTL                             0x3808
#define regCP_PERFMON_CNTL_BASE_IDX                    1
#define ixDIDT_SQ_CTRL0                                0x0000

#endif
)";

constexpr const char* kMasks = R"(#ifndef _gc_test_SH_MASK_HEADER
#define _gc_test_SH_MASK_HEADER
//GRBM_CNTL
#define GRBM_CNTL__READ_TIMEOUT__SHIFT                 0x0
#define GRBM_CNTL__REPORT_LAST_RDERR__SHIFT            0x1f
#define GRBM_CNTL__READ_TIMEOUT_MASK                   0x000000FFL
#define GRBM_CNTL__REPORT_LAST_RDERR_MASK              0x80000000L
//DIDT_SQ_CTRL0
#define DIDT_SQ_CTRL0__DIDT_CTRL_EN__SHIFT             0x0
#define DIDT_SQ_CTRL0__DIDT_CTRL_EN_MASK               0x00000001L
#endif
)";

std::string Errors(const AmdgpuReadResult& result) {
  return regdb::FormatDiagnostics(result.sources, result.diagnostics);
}

AmdgpuReadResult Read(std::string offsets, std::string masks, std::vector<uint64_t> bases = kBases,
                      const AmdgpuLimits& limits = {}) {
  return ReadAmdgpuHeaders({"gc_test_offset.h", std::move(offsets)}, {"gc_test_sh_mask.h", std::move(masks)}, bases,
                           limits);
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(AmdgpuReader, ByteOffsetIsFourTimesSegmentBasePlusDwordOffset) {
  AmdgpuReadResult result = Read(kOffsets, kMasks);
  ASSERT_TRUE(result.map) << Errors(result);
  ASSERT_EQ(result.map->registers.size(), 2u);
  EXPECT_EQ(result.map->registers[0].byte_offset, 0x8000u);  // 4 x (0x2000 + 0)
  EXPECT_EQ(result.map->registers[1].byte_offset,
            0x36020u);  // 4 x (0xA000 + 0x3808), as Mesa's R_036020
  EXPECT_EQ(result.map->registers[0].address_block, "gc_grbmdec");
  ASSERT_EQ(result.map->registers[0].fields.size(), 2u);
  EXPECT_EQ(result.map->registers[0].fields[0].name, "READ_TIMEOUT");
  EXPECT_EQ(result.map->registers[0].fields[0].msb, 7u);
  EXPECT_EQ(result.map->registers[0].fields[1].lsb, 31u);
  EXPECT_TRUE(result.map->registers[1].fields.empty());
  EXPECT_EQ(result.map->indirect_registers,
            1u);  // ixDIDT_SQ_CTRL0: an index, not a BAR offset
  EXPECT_EQ(result.map->indirect_fields, 1u);
}

TEST(AmdgpuReader, OutputSaysEveryFieldIsRwAndGivesFieldlessRegistersOneField) {
  AmdgpuReadResult result = Read(kOffsets, kMasks);
  ASSERT_TRUE(result.map) << Errors(result);
  auto files = WriteAmdgpuDatabaseYaml(*result.map, {"gc_test", "gc_test_offset.h", "gc_test_sh_mask.h", kBases});
  EXPECT_THAT(files["device.yaml"], HasSubstr("every field is imported as `rw`"));
  EXPECT_THAT(files["device.yaml"], HasSubstr("1 indirect registers"));
  const std::string& block = files["registers/gc_grbmdec.yaml"];
  EXPECT_THAT(block, HasSubstr("- {name: READ_TIMEOUT, bits: \"7:0\", access: rw}"));
  EXPECT_THAT(block, HasSubstr("offset: 0x36020\n    fields:\n      # the "
                               "headers give this register no fields"));
  EXPECT_THAT(block, HasSubstr("- {name: CP_PERFMON_CNTL, bits: \"31:0\", access: rw}"));
}

TEST(AmdgpuReader, RegisterNamedLikeAnotherRegistersResetMacroIsRenamed) {
  // gfx90a has CP_VMID and CP_VMID_RESET; a C header's CP_VMID_RESET is
  // CP_VMID's reset value.
  AmdgpuReadResult result = Read(Replace(kOffsets, "#define ixDIDT",
                                         "#define regGRBM_CNTL_RESET 0x1\n#define "
                                         "regGRBM_CNTL_RESET_BASE_IDX 0\n#define ixDIDT"),
                                 kMasks);
  ASSERT_TRUE(result.map) << Errors(result);
  auto files = WriteAmdgpuDatabaseYaml(*result.map, {"gc_test", "gc_test_offset.h", "gc_test_sh_mask.h", kBases});
  EXPECT_THAT(files["registers/gc_grbmdec.yaml"], HasSubstr("# GRBM_CNTL_RESET is named GRBM_CNTL_RESET_ here"));
  EXPECT_THAT(files["registers/gc_grbmdec.yaml"], HasSubstr("- name: GRBM_CNTL_RESET_\n"));
}

TEST(AmdgpuReader, FieldNamedAllInLowerCaseIsNamedInUpperCase) {
  // gfx90a's RLC_CP_SCHEDULERS has scheduler0..3: a C++ header's accessor of field F is f().
  AmdgpuReadResult result = Read(kOffsets, Replace(Replace(kMasks, "__READ_TIMEOUT__SHIFT", "__read_timeout__SHIFT"),
                                                   "__READ_TIMEOUT_MASK", "__read_timeout_MASK"));
  ASSERT_TRUE(result.map) << Errors(result);
  auto files = WriteAmdgpuDatabaseYaml(*result.map, {"gc_test", "gc_test_offset.h", "gc_test_sh_mask.h", kBases});
  EXPECT_THAT(files["registers/gc_grbmdec.yaml"], HasSubstr("# read_timeout is named READ_TIMEOUT here"));
  EXPECT_THAT(files["registers/gc_grbmdec.yaml"], HasSubstr("- {name: READ_TIMEOUT, bits: \"7:0\", access: rw}"));
}

TEST(AmdgpuReader, TruncatedHeaderIsAnErrorAtItsOpenIfndef) {
  std::string offsets = kOffsets;
  AmdgpuReadResult result = Read(offsets.substr(0, offsets.find("#define regCP_PERFMON_CNTL ")), kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:4:1: error: the file ends inside this #ifndef"));
}

TEST(AmdgpuReader, TruncatedInsideTheLicenseCommentIsAnError) {
  AmdgpuReadResult result = Read("/*\n * Copyright", kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:1:1: error: the file ends inside this /* comment"));
}

TEST(AmdgpuReader, ShiftWithoutMaskIsAnErrorAtTheShift) {
  AmdgpuReadResult result = Read(kOffsets, Replace(kMasks,
                                                   "#define GRBM_CNTL__READ_TIMEOUT_MASK             "
                                                   "      0x000000FFL\n",
                                                   ""));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_sh_mask.h:4:9: error: GRBM_CNTL__READ_TIMEOUT__SHIFT "
                                        "has no GRBM_CNTL__READ_TIMEOUT_MASK"));
}

TEST(AmdgpuReader, MaskWithoutShiftIsAnErrorAtTheMask) {
  AmdgpuReadResult result =
      Read(kOffsets, Replace(kMasks, "#define GRBM_CNTL__READ_TIMEOUT__SHIFT                 0x0\n", ""));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_sh_mask.h:5:9: error: GRBM_CNTL__READ_TIMEOUT_MASK has no"));
}

TEST(AmdgpuReader, ShiftThatDisagreesWithTheMaskIsAnError) {
  AmdgpuReadResult result = Read(kOffsets, Replace(kMasks, "__READ_TIMEOUT__SHIFT                 0x0",
                                                   "__READ_TIMEOUT__SHIFT                 0x1"));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_sh_mask.h:4:9: error: "
                                        "GRBM_CNTL__READ_TIMEOUT__SHIFT is 1, but "
                                        "GRBM_CNTL__READ_TIMEOUT_MASK 0xff starts at bit 0"));
}

TEST(AmdgpuReader, MaskThatIsNotOneRunOfBitsIsAnError) {
  AmdgpuReadResult result = Read(kOffsets, Replace(kMasks, "0x000000FFL", "0x000000F7L"));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_sh_mask.h:6:9: error: "
                                        "GRBM_CNTL__READ_TIMEOUT_MASK 0xf7 is not one "
                                        "run of bits"));
}

TEST(AmdgpuReader, OverlappingFieldsAreAnError) {
  AmdgpuReadResult result = Read(kOffsets, Replace(Replace(kMasks, "0x1f", "0x4"), "0x80000000L", "0x00000010L"));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("error: GRBM_CNTL__REPORT_LAST_RDERR "
                                        "(bits 4:4) overlaps READ_TIMEOUT"));
}

TEST(AmdgpuReader, IdenticalRedefinitionIsAcceptedAsCDoes) {
  AmdgpuReadResult result = Read(Replace(kOffsets, "#define ixDIDT", "#define regGRBM_CNTL 0x0000\n#define ixDIDT"),
                                 Replace(kMasks, "#endif", "#define GRBM_CNTL__READ_TIMEOUT_MASK 0x000000FFL\n#endif"));
  ASSERT_TRUE(result.map) << Errors(result);
  EXPECT_EQ(result.map->registers.size(), 2u);
  EXPECT_EQ(result.map->registers[0].fields[0].msb, 7u);
}

TEST(AmdgpuReader, DuplicateRegisterIsAnErrorWithTheFirstDefinition) {
  AmdgpuReadResult result =
      Read(Replace(kOffsets, "#define ixDIDT", "#define regGRBM_CNTL 0x0001\n#define ixDIDT"), kMasks);
  EXPECT_FALSE(result.map);
  std::string errors = Errors(result);
  EXPECT_THAT(errors, HasSubstr("gc_test_offset.h:13:9: error: regGRBM_CNTL is "
                                "defined again with another value"));
  EXPECT_THAT(errors, HasSubstr("gc_test_offset.h:9:9: note: first defined here"));
}

TEST(AmdgpuReader, DuplicateFieldIsAnError) {
  AmdgpuReadResult result =
      Read(kOffsets, Replace(kMasks, "#endif", "#define GRBM_CNTL__READ_TIMEOUT_MASK 0x0000000FL\n#endif"));
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_sh_mask.h:11:9: error: GRBM_CNTL__READ_TIMEOUT_MASK "
                                        "is defined again with another value"));
}

TEST(AmdgpuReader, BaseIndexWithoutABaseIsAnErrorAtTheBaseIndex) {
  AmdgpuReadResult result = Read(kOffsets, kMasks, {0x2000});
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:12:9: error: CP_PERFMON_CNTL is in "
                                        "segment 1, but --bases "
                                        "gives 1 segment base(s), 0 to 0"));
}

TEST(AmdgpuReader, RegisterWithoutBaseIndexIsAnError) {
  AmdgpuReadResult result =
      Read(Replace(kOffsets, "#define regGRBM_CNTL_BASE_IDX                          0\n", ""), kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:9:9: error: GRBM_CNTL has no GRBM_CNTL_BASE_IDX"));
}

TEST(AmdgpuReader, LineThatIsNotADefineIsAnError) {
  AmdgpuReadResult result = Read(Replace(kOffsets, "#endif", "int x;\n#endif"), kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:15:1: error: expected `#define NAME VALUE`"));
}

TEST(AmdgpuReader, ValueThatIsNotANumberIsAnError) {
  AmdgpuReadResult result = Read(Replace(kOffsets, "0x3808", "(0x3808 + 1)"), kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:11:56: error: regCP_PERFMON_CNTL: "
                                        "'(0x3808 + 1)' is not a number"));
}

TEST(AmdgpuReader, HugeFileIsRefusedBeforeReading) {
  AmdgpuLimits limits;
  limits.max_file_bytes = 1 << 20;
  AmdgpuReadResult result = Read(std::string(kOffsets) + std::string(2 << 20, '\n'), kMasks, kBases, limits);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:1:1: error: 2097"));
  EXPECT_THAT(Errors(result), HasSubstr("larger than 1 MiB; refused"));
}

TEST(AmdgpuReader, LongLineStopsTheFileAtThatLine) {
  AmdgpuReadResult result = Read(Replace(kOffsets, "#endif", std::string(10000, '/') + "\n#endif"), kMasks);
  EXPECT_FALSE(result.map);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:15:1: error: line of 10000 characters"));
}

TEST(AmdgpuReader, RegisterCountIsBounded) {
  std::string offsets;
  for (int i = 0; i < 20; ++i) {
    offsets += "#define regR" + std::to_string(i) + " " + std::to_string(i) + "\n#define regR" + std::to_string(i) +
               "_BASE_IDX 0\n";
  }
  AmdgpuLimits limits;
  limits.max_registers = 10;
  AmdgpuReadResult result = Read(offsets, "", kBases, limits);
  EXPECT_FALSE(result.map);
  EXPECT_EQ(result.diagnostics.error_count(), 1u) << Errors(result);
  EXPECT_THAT(Errors(result), HasSubstr("gc_test_offset.h:21:9: error: more than 10 registers; refused"));
}

TEST(AmdgpuReader, TwoRegistersAtOneOffsetBecomeAnAlias) {
  AmdgpuReadResult result = Read(Replace(kOffsets, "#define ixDIDT",
                                         "#define regGRBM_CNTL_ALT 0x0\n#define "
                                         "regGRBM_CNTL_ALT_BASE_IDX 0\n#define ixDIDT"),
                                 kMasks);
  ASSERT_TRUE(result.map) << Errors(result);
  EXPECT_EQ(result.map->registers[2].alias_of, "GRBM_CNTL");
}

TEST(AmdgpuReader, BasesParse) {
  std::string error;
  EXPECT_EQ(ParseAmdgpuBases("0x2000,0xA000,0x02402C00", error), (std::vector<uint64_t>{0x2000, 0xA000, 0x02402C00}));
  EXPECT_FALSE(ParseAmdgpuBases("0x2000,,1", error));
  EXPECT_THAT(error, HasSubstr("segment base ''"));
}

}  // namespace
}  // namespace regemu::convert
