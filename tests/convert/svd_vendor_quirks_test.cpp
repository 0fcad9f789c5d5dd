// SVD files as vendors ship them (issue 44): each quirk once, on an excerpt
// cut down from the vendor's file in the public cmsis-svd-data collection
// (github.com/cmsis-svd/cmsis-svd-data, data/<vendor>/<file>), converted
// and then checked like any database.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/convert/svd_test_support.hpp"

namespace regemu::convert {
namespace {

using ::testing::HasSubstr;
using testing::CheckErrors;
using testing::ConvertSvd;
using testing::FindRegister;
using testing::OnePeripheral;

// data/Atmel/ATSAMD21G18A.svd, SERCOM0: one peripheral described as I2C
// master, SPI and USART at the same offsets, each mode an <alternateCluster>
// of the first (SVD 1.3, /device/peripherals/peripheral/registers/.../cluster).
constexpr const char* kSercomModes = R"(
        <cluster><name>I2CM</name><addressOffset>0x0</addressOffset>
          <register><name>CTRLA</name><addressOffset>0x00</addressOffset></register>
          <register><name>DATA</name><addressOffset>0x18</addressOffset><size>8</size></register>
        </cluster>
        <cluster><name>SPI</name><alternateCluster>I2CM</alternateCluster><addressOffset>0x0</addressOffset>
          <register><name>CTRLA</name><addressOffset>0x00</addressOffset></register>
          <register><name>DATA</name><addressOffset>0x28</addressOffset></register>
        </cluster>
        <cluster><name>USART</name><alternateCluster>I2CM</alternateCluster><addressOffset>0x0</addressOffset>
          <register><name>CTRLA</name><addressOffset>0x00</addressOffset></register>
          <register><name>DATA</name><addressOffset>0x28</addressOffset><size>16</size></register>
        </cluster>
)";

TEST(SvdVendorQuirks, AlternateClustersShareTheirPlaces) {
  testing::Converted c = ConvertSvd(OnePeripheral(kSercomModes));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  // The mode registers are views of the place: CTRLA of the first mode, and
  // at 0x28 (no I2CM register there) SPI's 32-bit DATA, which spans USART's.
  EXPECT_EQ(FindRegister(c.loaded.database, "P_SPI_CTRLA")->alias_of, "P_I2CM_CTRLA");
  EXPECT_EQ(FindRegister(c.loaded.database, "P_USART_CTRLA")->alias_of, "P_I2CM_CTRLA");
  EXPECT_EQ(FindRegister(c.loaded.database, "P_USART_DATA")->alias_of, "P_SPI_DATA");
  EXPECT_EQ(FindRegister(c.loaded.database, "P_I2CM_DATA")->offset, 0x40000018u);
}

// Alternatives of each other, not of themselves: two registers of one mode
// that overlap are still the file's mistake.
TEST(SvdVendorQuirks, RegistersOfOneAlternateClusterStillMustNotOverlap) {
  std::string svd = OnePeripheral(R"(
        <cluster><name>A</name><addressOffset>0x0</addressOffset>
          <register><name>X</name><addressOffset>0x0</addressOffset></register>
        </cluster>
        <cluster><name>B</name><alternateCluster>A</alternateCluster><addressOffset>0x0</addressOffset>
          <register><name>Y</name><addressOffset>0x0</addressOffset></register>
          <register><name>Z</name><addressOffset>0x2</addressOffset><size>16</size></register>
        </cluster>
)");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("register 'P.B_Z' overlaps register 'P.B_Y'"));
}

// data/Atmel/ATSAMD21G18A.svd, TC3: COUNT32's CC0 covers COUNT8's CC0 and
// CC1; regemu names one alias target per register, so every register of the
// place is an alias of the one spanning it.
TEST(SvdVendorQuirks, TheWidestModeRegisterIsThePlace) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <cluster><name>COUNT8</name><addressOffset>0x0</addressOffset>
          <register><dim>2</dim><dimIncrement>1</dimIncrement><name>CC%s</name><addressOffset>0x18</addressOffset><size>8</size></register>
        </cluster>
        <cluster><name>COUNT16</name><alternateCluster>COUNT8</alternateCluster><addressOffset>0x0</addressOffset>
          <register><dim>2</dim><dimIncrement>2</dimIncrement><name>CC%s</name><addressOffset>0x18</addressOffset><size>16</size></register>
        </cluster>
        <cluster><name>COUNT32</name><alternateCluster>COUNT8</alternateCluster><addressOffset>0x0</addressOffset>
          <register><dim>1</dim><dimIncrement>4</dimIncrement><name>CC%s</name><addressOffset>0x18</addressOffset></register>
        </cluster>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_COUNT8_CC1")->alias_of, "P_COUNT32_CC0");
  EXPECT_EQ(FindRegister(c.loaded.database, "P_COUNT16_CC1")->alias_of, "P_COUNT32_CC0");
}

// data/Atmel/ATSAMD21G18A.svd, TCC0: CC%s_DITH4 is an alternateRegister of
// CC%s in the same dim array; copy n names CCn.
TEST(SvdVendorQuirks, AlternateRegisterOfADimArrayNamesTheSameCopy) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><dim>2</dim><dimIncrement>4</dimIncrement><name>CC%s</name><addressOffset>0x44</addressOffset></register>
        <register><dim>2</dim><dimIncrement>4</dimIncrement><name>CC%s_DITH4</name>
          <alternateRegister>CC%s</alternateRegister><addressOffset>0x44</addressOffset></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_CC1_DITH4")->alias_of, "P_CC1");
}

// data/Nordic/nrf51.svd, FICR: the deprecated array SIZERAMBLOCK[%s] names
// SIZERAMBLOCKS as its alternateRegister; only its first copy overlaps it.
TEST(SvdVendorQuirks, AnAlternateRegisterThatOverlapsNothingIsDropped) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>SIZERAMBLOCKS</name><addressOffset>0x38</addressOffset></register>
        <register><dim>2</dim><dimIncrement>4</dimIncrement><name>SIZERAMBLOCK[%s]</name>
          <addressOffset>0x38</addressOffset><alternateRegister>SIZERAMBLOCKS</alternateRegister></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_SIZERAMBLOCK0")->alias_of, "P_SIZERAMBLOCKS");
  EXPECT_EQ(FindRegister(c.loaded.database, "P_SIZERAMBLOCK1")->alias_of, "");
  EXPECT_THAT(c.files["peripherals/P.yaml"], HasSubstr("alternateRegister SIZERAMBLOCKS left out"));
}

// data/Nordic/nrf52840.svd spells read-writeOnce `read-writeonce` (216
// times); CMSIS-SVD.xsd's accessType is case-sensitive. It is read as the
// word it matches, with a note.
TEST(SvdVendorQuirks, WordsAreReadCaseInsensitivelyWithANote) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>NFCPINS</name><addressOffset>0x20C</addressOffset>
          <fields><field><name>PROTECT</name><bitRange>[0:0]</bitRange><access>read-writeonce</access></field></fields>
        </register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_NFCPINS")->fields[0].access, regdb::Access::kW1);
  EXPECT_THAT(c.files["peripherals/P.yaml"],
              HasSubstr("# access 'read-writeonce' read as 'read-writeOnce' (SVD's words are case-sensitive)"));
}

// data/Atmel/ATSAME70Q21.svd: AFEC1 derives from AFEC0, whose prependToName
// AFEC_ it inherits; loose names would be AFEC_CR twice.
TEST(SvdVendorQuirks, APrefixedPeripheralWithInstancesIsABlock) {
  std::string svd = OnePeripheral(R"(
        <register><name>CR</name><addressOffset>0x0</addressOffset></register>
)",
                                  "      <prependToName>AFEC_</prependToName>\n");
  svd.replace(svd.find("  </peripherals>"), 0,
              "    <peripheral derivedFrom=\"P\"><name>Q</name><baseAddress>0x40010000</baseAddress></peripheral>\n");
  testing::Converted c = ConvertSvd(svd);
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "Q_CR")->offset, 0x40010000u);
  EXPECT_THAT(c.files["peripherals/P.yaml"], HasSubstr("prependToName \"AFEC_\" left out"));
}

// data/Atmel/ATSAMD51J19A.svd, CoreDebug DHCSR: DBGKEY [31:16] (written)
// over the S_ status bits (read). The read layout stays.
TEST(SvdVendorQuirks, AWriteOnlyFieldOverReadOnlyFieldsIsLeftOut) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>DHCSR</name><addressOffset>0x0</addressOffset>
          <fields>
            <field><name>C_DEBUGEN</name><bitOffset>0</bitOffset><bitWidth>1</bitWidth></field>
            <field><name>S_REGRDY</name><bitOffset>16</bitOffset><bitWidth>1</bitWidth><access>read-only</access></field>
            <field><name>S_HALT</name><bitOffset>17</bitOffset><bitWidth>1</bitWidth><access>read-only</access></field>
            <field><name>DBGKEY</name><bitOffset>16</bitOffset><bitWidth>16</bitWidth><access>write-only</access></field>
          </fields>
        </register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_DHCSR")->fields.size(), 3u);
  EXPECT_THAT(c.files["peripherals/P.yaml"], HasSubstr("write-only field DBGKEY [31:16] shares its bits"));
}

// data/Atmel/ATSAMD51J19A.svd, SDHC HC1R: 8 bits, resetValue 0xE00.
TEST(SvdVendorQuirks, AResetValueWiderThanItsRegisterKeepsItsOwnBits) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>HC1R</name><addressOffset>0x28</addressOffset><size>8</size><resetValue>0xE01</resetValue></register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_HC1R")->reset, 0x01u);
  EXPECT_THAT(c.files["peripherals/P.yaml"], HasSubstr("resetValue 0xE01 does not fit in 8 bits"));
}

// data/STMicro/STM32G071.svd, TIM15 SMCR: SMS2 (1 bit) lists values up to 0x7.
TEST(SvdVendorQuirks, AnEnumeratedValueTooWideForItsFieldIsLeftOut) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>SMCR</name><addressOffset>0x8</addressOffset>
          <fields><field><name>SMS2</name><bitOffset>16</bitOffset><bitWidth>1</bitWidth>
            <enumeratedValues>
              <enumeratedValue><name>B_0x0</name><value>0x0</value></enumeratedValue>
              <enumeratedValue><name>B_0x4</name><value>0x4</value></enumeratedValue>
            </enumeratedValues></field></fields>
        </register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_SMCR")->fields[0].values.size(), 1u);
  EXPECT_THAT(c.files["peripherals/P.yaml"], HasSubstr("enumerated value B_0x4 = 0x4 does not fit"));
}

// data/Atmel/ATSAMD21G18A.svd, SYSCTRL BOD33.ACTION has a value RESET; the
// C header already defines FIELD_RESET (the field's reset value).
TEST(SvdVendorQuirks, AValueNamedLikeAHeaderSuffixIsRenamed) {
  testing::Converted c = ConvertSvd(OnePeripheral(R"(
        <register><name>BOD33</name><addressOffset>0x34</addressOffset>
          <fields><field><name>ACTION</name><bitOffset>3</bitOffset><bitWidth>2</bitWidth>
            <enumeratedValues><enumeratedValue><name>RESET</name><value>0x1</value></enumeratedValue></enumeratedValues>
          </field></fields>
        </register>
)"));
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_BOD33")->fields[0].values[0].name, "RESET_");
}

// data/Espressif/esp32c3.svd says addressUnitBits 32 and gives byte
// offsets (32-bit registers 4 apart): read as bytes, with a note.
TEST(SvdVendorQuirks, AddressUnitBits32WithByteOffsetsIsReadAsBytes) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0x0</addressOffset></register>
        <register><name>B</name><addressOffset>0x4</addressOffset></register>
)");
  svd.replace(svd.find("<addressUnitBits>8"), 18, "<addressUnitBits>32");
  testing::Converted c = ConvertSvd(svd);
  ASSERT_TRUE(c.read.device) << c.errors;
  ASSERT_FALSE(c.loaded.diagnostics.has_errors()) << CheckErrors(c);
  EXPECT_EQ(FindRegister(c.loaded.database, "P_B")->offset, 0x40000004u);
  EXPECT_THAT(c.files["device.yaml"], HasSubstr("the offsets are read as byte offsets"));
}

// Offsets that count 32-bit words (1 apart) are refused, at the unit and the offset.
TEST(SvdVendorQuirks, AddressUnitBits32WithWordOffsetsIsRefused) {
  std::string svd = OnePeripheral(R"(
        <register><name>A</name><addressOffset>0x0</addressOffset></register>
        <register><name>B</name><addressOffset>0x1</addressOffset></register>
)");
  svd.replace(svd.find("<addressUnitBits>8"), 18, "<addressUnitBits>32");
  testing::Converted c = ConvertSvd(svd);
  EXPECT_FALSE(c.read.device);
  EXPECT_THAT(c.errors, HasSubstr("test.svd:4:3: error: addressUnitBits 32: regemu addresses bytes (8 bits)"));
  EXPECT_THAT(c.errors, HasSubstr("this addressOffset is no multiple of 4"));
}

}  // namespace
}  // namespace regemu::convert
