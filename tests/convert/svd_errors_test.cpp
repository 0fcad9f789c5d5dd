// Broken and hostile SVD files: each gives a located error (file:line of
// the XML) and no device, never a crash or an unbounded cost.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/convert/svd_test_support.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;
using testing::ConvertSvd;
using testing::OnePeripheral;

// The line of `needle` in `text`, 1-based.
int LineOf(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  EXPECT_NE(at, std::string::npos) << needle;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
}

std::string At(const std::string& text, const std::string& needle) {
  return "test.svd:" + std::to_string(LineOf(text, needle)) + ":";
}

TEST(SvdErrors, OverlappingRegisters) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset></register>
        <register><name>B</name><addressOffset>2</addressOffset><size>16</size></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "<name>B</name>")));
  EXPECT_THAT(c.errors, HasSubstr("register 'P.B' overlaps register 'P.A'"));
}

TEST(SvdErrors, AlternateRegistersMayShareAPlace) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset></register>
        <register><name>B</name><alternateRegister>A</alternateRegister><addressOffset>0</addressOffset></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  EXPECT_FALSE(c.loaded.diagnostics.has_errors()) << testing::CheckErrors(c);
}

// An alternateGroup register is NAME_GROUP, an alias of the register at its offset.
TEST(SvdErrors, AlternateGroupsMayShareAPlace) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>CR</name><addressOffset>0</addressOffset></register>
        <register><name>CR</name><alternateGroup>ALT</alternateGroup><addressOffset>0</addressOffset></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << testing::CheckErrors(c);
  const regdb::Register* alt = testing::FindRegister(c.loaded.database, "P_CR_ALT");
  ASSERT_NE(alt, nullptr);
  EXPECT_EQ(alt->alias_of, "P_CR");
}

TEST(SvdErrors, FieldPastTheRegister) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset><size>8</size>
          <fields><field><name>F</name><bitRange>[8:7]</bitRange></field></fields></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "<field><name>F")));
  EXPECT_THAT(c.errors, HasSubstr("lies past the 8 bits of register 'P.A'"));
}

TEST(SvdErrors, OverlappingFields) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset>
          <fields><field><name>F</name><bitRange>[3:0]</bitRange></field>
            <field><name>G</name><bitRange>[4:3]</bitRange></field></fields></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "<field><name>G")));
  EXPECT_THAT(c.errors, HasSubstr("field 'G' overlaps field 'F'"));
}

TEST(SvdErrors, DerivedFromNothing) {
  std::string svd = OnePeripheral(R"(
        <register derivedFrom="NOPE"><name>A</name><addressOffset>0</addressOffset></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "derivedFrom=\"NOPE\"")));
  EXPECT_THAT(c.errors, HasSubstr("derivedFrom 'NOPE': no register of that name"));
}

TEST(SvdErrors, DerivedFromCycle) {
  std::string svd = OnePeripheral(R"(
        <register derivedFrom="B"><name>A</name><addressOffset>0</addressOffset></register>
        <register derivedFrom="A"><name>B</name><addressOffset>4</addressOffset></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "derivedFrom=\"B\"")));
  EXPECT_THAT(c.errors, HasSubstr("derivedFrom cycle"));
}

// A chain longer than the limit is refused, however long the file makes it.
TEST(SvdErrors, DeepDerivationChainIsBounded) {
  std::string registers = "        <register><name>R0</name><addressOffset>0</addressOffset></register>\n";
  for (int i = 1; i < 200; ++i) {
    registers += "        <register derivedFrom=\"R" + std::to_string(i - 1) + "\"><name>R" + std::to_string(i) +
                 "</name><addressOffset>" + std::to_string(4 * i) + "</addressOffset></register>\n";
  }
  testing::Converted c = ConvertSvd(OnePeripheral(registers));
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("derivedFrom chain longer than 16"));
}

TEST(SvdErrors, TruncatedFile) {
  std::string svd = OnePeripheral("        <register><name>A</name><addressOffset>0</addressOffset></register>\n");
  svd.resize(svd.find("</register>") + 4);
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("not well-formed XML"));
  EXPECT_THAT(c.errors, HasSubstr("test.svd:"));
}

TEST(SvdErrors, NotAnSvdFile) {
  testing::Converted c = ConvertSvd("<?xml version=\"1.0\"?>\n<html><body/></html>\n");
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("test.svd:2:1: error: not a CMSIS-SVD file: the root element is <html>"));
}

// The billion laughs: pugixml never reads the DTD, so nothing could expand;
// the DOCTYPE itself is refused.
TEST(SvdErrors, BillionLaughsIsRefused) {
  std::string svd = "<?xml version=\"1.0\"?>\n<!DOCTYPE device [\n <!ENTITY lol \"lol\">\n";
  for (int i = 1; i < 10; ++i) {
    svd += " <!ENTITY lol" + std::to_string(i) + " \"";
    for (int j = 0; j < 10; ++j) svd += "&lol" + (i == 1 ? std::string() : std::to_string(i - 1)) + ";";
    svd += "\">\n";
  }
  svd += "]>\n<device><name>&lol9;</name></device>\n";
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("test.svd:2:1: error: a DOCTYPE is not part of CMSIS-SVD"));
}

// Without a DOCTYPE an undefined entity stays text: nothing expands.
TEST(SvdErrors, UndefinedEntitiesStayText) {
  std::string svd = OnePeripheral("        <register><name>A</name><addressOffset>0</addressOffset></register>\n");
  svd.replace(svd.find("<name>TEST</name>"), 17, "<name>T&lol9;</name>");
  testing::Converted c = ConvertSvd(svd);
  ASSERT_TRUE(c.read.device) << c.errors;
  EXPECT_EQ(c.read.device->name, "T&lol9;");
  EXPECT_EQ(c.loaded.database.device, "T_lol9_");
}

TEST(SvdErrors, FileOverTheSizeLimit) {
  SvdLimits limits;
  limits.max_file_bytes = 1024;
  testing::Converted c = ConvertSvd(std::string(2048, ' '), "test.svd", limits);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("test.svd:1:1: error: larger than 0 MiB; refused"));
}

TEST(SvdErrors, ElementCountIsBounded) {
  SvdLimits limits;
  limits.max_elements = 20;
  std::string registers;
  for (int i = 0; i < 10; ++i) {
    registers += "<register><name>R" + std::to_string(i) + "</name><addressOffset>" + std::to_string(4 * i) +
                 "</addressOffset></register>\n";
  }
  testing::Converted c = ConvertSvd(OnePeripheral(registers), "test.svd", limits);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("more than 20 XML elements; refused"));
}

TEST(SvdErrors, DimBeyondTheLimitAndWithoutAnIndexHole) {
  std::string svd = OnePeripheral(R"(
        <register><dim>100000</dim><dimIncrement>4</dimIncrement><name>A%s</name><addressOffset>0</addressOffset></register>
        <register><dim>2</dim><dimIncrement>4</dimIncrement><name>B</name><addressOffset>0x100</addressOffset></register>
        <register><dim>3</dim><dimIncrement>4</dimIncrement><dimIndex>X,Y</dimIndex><name>C%s</name><addressOffset>0x200</addressOffset></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "<dim>100000") + "9: error: <dim> '100000' is not a count from 1 to 4096"));
  EXPECT_THAT(c.errors, HasSubstr("whose name has no %s"));
  EXPECT_THAT(c.errors, HasSubstr("<dimIndex> 'X,Y' does not list 3 indices"));
}

TEST(SvdErrors, UnknownAccessWordIsLocated) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset><access>sometimes</access></register>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr(At(svd, "<name>A</name>")));
  EXPECT_THAT(c.errors, HasSubstr("unknown access 'sometimes'"));
}

}  // namespace
}  // namespace regemu::convert
