// The SVD reader's mappings, each on the smallest SVD that shows it:
// access policies, inheritance, derivedFrom, dim, clusters, enumerated
// values, reserved blocks and what only a comment can say.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/convert/svd_test_support.hpp"
#include "tools/convert/svd_access.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;
using testing::CheckErrors;
using testing::ConvertSvd;
using testing::FindRegister;
using testing::OnePeripheral;

struct PolicyCase {
  const char* access;
  const char* write;
  const char* read;
  const char* policy;
  bool exact;
};

class SvdPolicyTest : public ::testing::TestWithParam<PolicyCase> {};

// Every SVD access word, modifiedWriteValues and readAction lands on the
// regemu policy with the same read and write effects; the pairs regemu has
// no policy for keep a note.
TEST_P(SvdPolicyTest, MapsToThePolicyWithTheSameEffects) {
  const PolicyCase& c = GetParam();
  std::string error;
  ImportedPolicy policy = PolicyFromSvd({c.access, c.write, c.read}, error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(regdb::AccessName(policy.access), c.policy);
  EXPECT_EQ(policy.notes.empty(), c.exact) << (policy.notes.empty() ? "" : policy.notes.front());
}

INSTANTIATE_TEST_SUITE_P(
    AllWords, SvdPolicyTest,
    ::testing::Values(PolicyCase{"read-write", "", "", "rw", true}, PolicyCase{"read-only", "", "", "ro", true},
                      PolicyCase{"write-only", "", "", "wo", true}, PolicyCase{"writeOnce", "", "", "wo1", true},
                      PolicyCase{"read-writeOnce", "", "", "w1", true},
                      PolicyCase{"read-write", "oneToClear", "", "w1c", true},
                      PolicyCase{"read-write", "oneToSet", "", "w1s", true},
                      PolicyCase{"read-write", "oneToToggle", "", "w1t", true},
                      PolicyCase{"read-write", "zeroToClear", "", "w0c", true},
                      PolicyCase{"read-write", "zeroToSet", "", "w0s", true},
                      PolicyCase{"read-write", "zeroToToggle", "", "w0t", true},
                      PolicyCase{"read-write", "clear", "", "wc", true}, PolicyCase{"read-write", "set", "", "ws", true},
                      PolicyCase{"read-write", "modify", "", "rw", false},
                      PolicyCase{"write-only", "clear", "", "woc", true},
                      PolicyCase{"write-only", "set", "", "wos", true},
                      PolicyCase{"read-only", "", "clear", "rc", true}, PolicyCase{"read-only", "", "set", "rs", true},
                      PolicyCase{"read-write", "", "clear", "wrc", true},
                      PolicyCase{"read-write", "", "set", "wrs", true},
                      PolicyCase{"read-write", "set", "clear", "wsrc", true},
                      PolicyCase{"read-write", "clear", "set", "wcrs", true},
                      PolicyCase{"read-write", "oneToSet", "clear", "w1src", true},
                      PolicyCase{"read-write", "oneToClear", "set", "w1crs", true},
                      PolicyCase{"read-write", "zeroToSet", "clear", "w0src", true},
                      PolicyCase{"read-write", "zeroToClear", "set", "w0crs", true},
                      PolicyCase{"read-only", "", "modify", "ro", false},
                      PolicyCase{"read-only", "", "modifyExternal", "ro", false},
                      PolicyCase{"read-write", "oneToClear", "clear", "w1c", false},
                      PolicyCase{"write-only", "oneToClear", "", "w1c", false}));

TEST(SvdPolicy, UnknownWordsAreErrors) {
  std::string error;
  PolicyFromSvd({"read-mostly", "", ""}, error);
  EXPECT_THAT(error, HasSubstr("unknown access 'read-mostly'"));
  error.clear();
  PolicyFromSvd({"read-write", "oneToFlip", ""}, error);
  EXPECT_THAT(error, HasSubstr("unknown modifiedWriteValues 'oneToFlip'"));
  error.clear();
  PolicyFromSvd({"read-write", "", "explode"}, error);
  EXPECT_THAT(error, HasSubstr("unknown readAction 'explode'"));
}

// Export and import agree: every policy SVD can say comes back as itself.
TEST(SvdPolicy, ExportedPoliciesComeBack) {
  for (const regdb::AccessInfo& info : regdb::AllAccessPolicies()) {
    std::string note;
    std::optional<SvdAccessText> svd = SvdFromPolicy(info.access, note);
    if (!svd) continue;
    std::string error;
    ImportedPolicy back = PolicyFromSvd(*svd, error);
    EXPECT_EQ(error, "") << info.name;
    if (info.access == regdb::Access::kHw || info.access == regdb::Access::kFixed) {
      EXPECT_EQ(back.access, regdb::Access::kRo) << info.name;
    } else {
      EXPECT_EQ(back.access, info.access) << info.name;
    }
  }
}

// A register's fields, offsets, resets and policies; read-only and
// write-1-to-clear bits are volatile (hardware drives them).
TEST(SvdReader, RegistersAndFieldsOfAPeripheral) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register>
          <name>CTRL</name>
          <addressOffset>0x4</addressOffset>
          <resetValue>0x00000105</resetValue>
          <fields>
            <field><name>EN</name><bitRange>[0:0]</bitRange></field>
            <field><name>MODE</name><bitOffset>1</bitOffset><bitWidth>2</bitWidth></field>
            <field><name>BUSY</name><lsb>8</lsb><msb>8</msb><access>read-only</access></field>
            <field><name>IRQ</name><bitRange>[9:9]</bitRange><modifiedWriteValues>oneToClear</modifiedWriteValues></field>
          </fields>
        </register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Register* ctrl = FindRegister(c.loaded.database, "P_CTRL");
  ASSERT_NE(ctrl, nullptr);
  EXPECT_EQ(ctrl->offset, 0x40000004u);
  EXPECT_EQ(ctrl->reset, 0x105u);
  ASSERT_EQ(ctrl->fields.size(), 4u);
  EXPECT_EQ(ctrl->fields[1].bits.msb, 2u);
  EXPECT_EQ(ctrl->fields[1].bits.lsb, 1u);
  EXPECT_EQ(ctrl->fields[2].access, regdb::Access::kRo);
  EXPECT_TRUE(ctrl->fields[2].is_volatile);
  EXPECT_EQ(ctrl->fields[3].access, regdb::Access::kW1c);
  EXPECT_TRUE(ctrl->fields[3].is_volatile);
  EXPECT_FALSE(ctrl->fields[0].is_volatile);
}

// size, access, resetValue and resetMask come down from the device and the
// peripheral; bits resetMask leaves undefined are said in a comment.
TEST(SvdReader, PropertiesAreInheritedDownTheTree) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset></register>
        <register><name>B</name><addressOffset>2</addressOffset><access>read-write</access>
          <resetValue>0xFFFF</resetValue></register>
)",
                                                  "      <size>16</size><access>read-only</access>"
                                                  "<resetValue>0x1234</resetValue><resetMask>0xFF</resetMask>\n"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Register* a = FindRegister(c.loaded.database, "P_A");
  const regdb::Register* b = FindRegister(c.loaded.database, "P_B");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->width, 16u);
  EXPECT_EQ(a->default_access, regdb::Access::kRo);
  EXPECT_EQ(a->reset, 0x34u);
  EXPECT_EQ(b->default_access, regdb::Access::kRw);
  EXPECT_EQ(b->reset, 0xFFu);
  EXPECT_THAT(c.files.at("peripherals/P.yaml"), HasSubstr("resetMask leaves bits 0xff00 undefined at reset"));
}

// A peripheral derived from another without changes is a second instance of its block.
TEST(SvdReader, DerivedPeripheralIsAnotherInstance) {
  std::string svd = OnePeripheral(R"(
        <register><name>DR</name><addressOffset>0</addressOffset></register>
)");
  svd.insert(svd.find("  </peripherals>"),
             "    <peripheral derivedFrom=\"P\"><name>Q</name><baseAddress>0x40001000</baseAddress>"
             "<interrupt><name>Q_IRQ</name><value>3</value></interrupt></peripheral>\n");
  testing::Converted c = ConvertSvd(svd);
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Register* q = FindRegister(c.loaded.database, "Q_DR");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->offset, 0x40001000u);
  ASSERT_TRUE(q->block);
  EXPECT_EQ(q->block->block, "P");
  EXPECT_THAT(c.files.at("peripherals/P.yaml"), HasSubstr("Q raises interrupt Q_IRQ (3)"));
}

// derivedFrom on registers and fields: the element's own values override the base's.
TEST(SvdReader, DerivedRegistersAndFieldsOverrideTheirBase) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>A</name><addressOffset>0</addressOffset><resetValue>7</resetValue>
          <fields>
            <field><name>X</name><bitRange>[3:0]</bitRange><access>read-only</access></field>
            <field derivedFrom="X"><name>Y</name><bitRange>[7:4]</bitRange></field>
          </fields></register>
        <register derivedFrom="A"><name>B</name><addressOffset>4</addressOffset></register>
        <register derivedFrom="P.A"><name>C</name><addressOffset>8</addressOffset><resetValue>0</resetValue></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Register* b = FindRegister(c.loaded.database, "P_B");
  const regdb::Register* cc = FindRegister(c.loaded.database, "P_C");
  ASSERT_TRUE(b && cc);
  EXPECT_EQ(b->reset, 7u);
  ASSERT_EQ(b->fields.size(), 2u);
  EXPECT_EQ(b->fields[1].access, regdb::Access::kRo);
  EXPECT_EQ(b->fields[1].bits.lsb, 4u);
  EXPECT_EQ(cc->reset, 0u);
}

// dim with %s and a dimIndex list, [%s] arrays, and clusters with dim.
TEST(SvdReader, DimArraysAndClustersExpand) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><dim>3</dim><dimIncrement>4</dimIncrement><dimIndex>A,B,C</dimIndex>
          <name>CH%s</name><addressOffset>0</addressOffset></register>
        <register><dim>2</dim><dimIncrement>4</dimIncrement><name>BUF[%s]</name><addressOffset>0x10</addressOffset></register>
        <cluster><dim>2</dim><dimIncrement>0x10</dimIncrement><dimIndex>1-2</dimIndex><name>SM%s</name>
          <addressOffset>0x100</addressOffset>
          <register><name>CLKDIV</name><addressOffset>4</addressOffset>
            <fields><field><dim>2</dim><dimIncrement>8</dimIncrement><name>F%s</name><bitRange>[7:0]</bitRange></field></fields>
          </register>
        </cluster>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Database& db = c.loaded.database;
  ASSERT_TRUE(FindRegister(db, "P_CHC"));
  EXPECT_EQ(FindRegister(db, "P_CHC")->offset, 0x40000008u);
  ASSERT_TRUE(FindRegister(db, "P_BUF1"));
  EXPECT_EQ(FindRegister(db, "P_BUF1")->offset, 0x40000014u);
  const regdb::Register* sm2 = FindRegister(db, "P_SM2_CLKDIV");
  ASSERT_TRUE(sm2);
  EXPECT_EQ(sm2->offset, 0x40000114u);
  ASSERT_EQ(sm2->fields.size(), 2u);
  EXPECT_EQ(sm2->fields[1].name, "F1");
  EXPECT_EQ(sm2->fields[1].bits.lsb, 8u);
}

// Enumerated values: one set kept (read-write, else read), the other and
// isDefault said in comments; writeConstraint too.
TEST(SvdReader, EnumeratedValuesAndWriteConstraints) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>R</name><addressOffset>0</addressOffset>
          <fields><field><name>M</name><bitRange>[1:0]</bitRange>
            <writeConstraint><range><minimum>0</minimum><maximum>2</maximum></range></writeConstraint>
            <enumeratedValues><usage>write</usage>
              <enumeratedValue><name>GO</name><value>1</value></enumeratedValue></enumeratedValues>
            <enumeratedValues><usage>read</usage>
              <enumeratedValue><name>IDLE</name><description>Nothing to do</description><value>0</value></enumeratedValue>
              <enumeratedValue><name>BUSY</name><value>#1</value></enumeratedValue>
              <enumeratedValue><name>OTHER</name><isDefault>true</isDefault></enumeratedValue>
            </enumeratedValues>
          </field></fields></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  const regdb::Register* r = FindRegister(c.loaded.database, "P_R");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->fields[0].values.size(), 2u);
  EXPECT_EQ(r->fields[0].values[0].name, "IDLE");
  EXPECT_EQ(r->fields[0].values[0].doc, "Nothing to do");
  EXPECT_EQ(r->fields[0].values[1].value, 1u);
  const std::string& text = c.files.at("peripherals/P.yaml");
  EXPECT_THAT(text, HasSubstr("enumeratedValues for usage write left out: GO=1"));
  EXPECT_THAT(text, HasSubstr("isDefault: every value not listed is OTHER"));
  EXPECT_THAT(text, HasSubstr("writeConstraint: values 0 to 2 only"));
}

// An addressBlock marked reserved is a reserved range of the bus.
TEST(SvdReader, ReservedAddressBlockIsAReservedRange) {
  testing::Converted c = ConvertSvd(OnePeripheral(
      "        <register><name>R</name><addressOffset>0</addressOffset></register>\n",
      "      <addressBlock><offset>0</offset><size>0x100</size><usage>registers</usage></addressBlock>\n"
      "      <addressBlock><offset>0x100</offset><size>0x100</size><usage>reserved</usage></addressBlock>\n"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  ASSERT_EQ(c.loaded.database.ranges.size(), 1u);
  EXPECT_EQ(c.loaded.database.ranges[0].base, 0x40000100u);
  EXPECT_EQ(c.loaded.database.ranges[0].size, 0x100u);
}

// More peripherals than the loader takes files: they share files, and the
// database loads and checks clean.
TEST(SvdReader, ManyPeripheralsShareFiles) {
  std::string peripherals;
  for (int i = 0; i < 450; ++i) {
    peripherals += "<peripheral><name>P" + std::to_string(i) + "</name><baseAddress>" + std::to_string(0x1000 * i) +
                   "</baseAddress><registers><register><name>R</name><addressOffset>0</addressOffset></register>"
                   "</registers></peripheral>\n";
  }
  testing::Converted c = ConvertSvd("<device><name>MANY</name><peripherals>" + peripherals + "</peripherals></device>");
  ASSERT_TRUE(c.read.device) << c.errors;
  EXPECT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_LE(c.files.size(), 201u);
  EXPECT_EQ(c.loaded.database.registers.size(), 450u);
}

}  // namespace
}  // namespace regemu::convert
