// Number syntax of the database (yaml/README.md "Numbers"): decimal, 0x hex,
// 0b binary, '_' between digits, 64-bit range; bit ranges; durations; Hex().
#include <cstdint>
#include <string>
#include <variant>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/numbers.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// The value, or a failure naming the error text.
::testing::AssertionResult ParsesTo(std::string_view text, uint64_t expected) {
  auto parsed = ParseUnsigned(text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    return ::testing::AssertionFailure() << "'" << text << "' failed: " << error->message;
  }
  if (std::get<uint64_t>(parsed) != expected) {
    return ::testing::AssertionFailure() << "'" << text << "' gave " << std::get<uint64_t>(parsed) << ", expected "
                                         << expected;
  }
  return ::testing::AssertionSuccess();
}

// The error message, or "" when `text` parsed.
std::string UnsignedError(std::string_view text) {
  auto parsed = ParseUnsigned(text);
  auto* error = std::get_if<NumberError>(&parsed);
  return error ? error->message : "";
}

std::string BitsError(std::string_view text) {
  auto parsed = ParseBitRange(text);
  auto* error = std::get_if<NumberError>(&parsed);
  return error ? error->message : "";
}

std::string DurationError(std::string_view text) {
  auto parsed = ParseDurationNs(text);
  auto* error = std::get_if<NumberError>(&parsed);
  return error ? error->message : "";
}

// --- ParseUnsigned ----------------------------------------------------------

TEST(ParseUnsignedTest, ReadsDecimal) {
  EXPECT_TRUE(ParsesTo("0", 0));
  EXPECT_TRUE(ParsesTo("4096", 4096));
  EXPECT_TRUE(ParsesTo("18446744073709551615", UINT64_MAX));
}

TEST(ParseUnsignedTest, LeadingZerosAreDecimalNotOctal) {
  EXPECT_TRUE(ParsesTo("010", 10));
  EXPECT_TRUE(ParsesTo("0009", 9));
}

TEST(ParseUnsignedTest, ReadsHexInEitherCase) {
  EXPECT_TRUE(ParsesTo("0x1000", 0x1000));
  EXPECT_TRUE(ParsesTo("0X1f", 0x1f));
  EXPECT_TRUE(ParsesTo("0xDeadBeef", 0xdeadbeef));
}

TEST(ParseUnsignedTest, ReadsBinary) {
  EXPECT_TRUE(ParsesTo("0b1010", 10));
  EXPECT_TRUE(ParsesTo("0B1", 1));
  EXPECT_TRUE(ParsesTo("0b0", 0));
}

TEST(ParseUnsignedTest, UnderscoresSeparateDigitsInEveryBase) {
  EXPECT_TRUE(ParsesTo("0xFFFF_0000", 0xFFFF0000));
  EXPECT_TRUE(ParsesTo("1_000_000", 1000000));
  EXPECT_TRUE(ParsesTo("0b1010_0101", 0xa5));
}

TEST(ParseUnsignedTest, UnderscoreOnlyBetweenDigits) {
  EXPECT_THAT(UnsignedError("_1"), HasSubstr("'_' only between digits"));
  EXPECT_THAT(UnsignedError("1_"), HasSubstr("'_' only between digits"));
  EXPECT_THAT(UnsignedError("0x_1"), HasSubstr("'_' only between digits"));
  EXPECT_THAT(UnsignedError("0x1_"), HasSubstr("'_' only between digits"));
  EXPECT_THAT(UnsignedError("1__0"), HasSubstr("has '__' in it"));
  EXPECT_THAT(UnsignedError("0xFF__00"), HasSubstr("has '__' in it"));
}

TEST(ParseUnsignedTest, RejectsEmptyText) { EXPECT_THAT(UnsignedError(""), HasSubstr("empty value")); }

TEST(ParseUnsignedTest, RejectsAPrefixWithoutDigits) {
  EXPECT_THAT(UnsignedError("0x"), HasSubstr("'x' is not a decimal digit"));
  EXPECT_THAT(UnsignedError("0b"), HasSubstr("'b' is not a decimal digit"));
}

TEST(ParseUnsignedTest, NamesTheBadDigitAndTheBase) {
  EXPECT_EQ(UnsignedError("12a"), "'12a' is not a number: 'a' is not a decimal digit");
  EXPECT_EQ(UnsignedError("0b102"), "'0b102' is not a number: '2' is not a binary digit");
  EXPECT_EQ(UnsignedError("0x1g"), "'0x1g' is not a number: 'g' is not a hexadecimal digit");
}

TEST(ParseUnsignedTest, RejectsSignsSpacesAndFractions) {
  EXPECT_THAT(UnsignedError("-1"), HasSubstr("'-' is not a decimal digit"));
  EXPECT_THAT(UnsignedError("+1"), HasSubstr("'+' is not a decimal digit"));
  EXPECT_THAT(UnsignedError(" 1"), HasSubstr("' ' is not a decimal digit"));
  EXPECT_THAT(UnsignedError("1.5"), HasSubstr("'.' is not a decimal digit"));
}

TEST(ParseUnsignedTest, LargestValueOfEachBaseFits) {
  EXPECT_TRUE(ParsesTo("0xFFFF_FFFF_FFFF_FFFF", UINT64_MAX));
  EXPECT_TRUE(ParsesTo("0x0000_FFFF_FFFF_FFFF_FFFF", UINT64_MAX));  // leading zeros do not count
  EXPECT_TRUE(ParsesTo("0b" + std::string(64, '1'), UINT64_MAX));
}

TEST(ParseUnsignedTest, OneMoreThan64BitsDoesNotFit) {
  EXPECT_EQ(UnsignedError("18446744073709551616"), "'18446744073709551616' does not fit in 64 bits");
  EXPECT_THAT(UnsignedError("0x1_0000_0000_0000_0000"), HasSubstr("does not fit in 64 bits"));
  EXPECT_THAT(UnsignedError("0b1" + std::string(64, '0')), HasSubstr("does not fit in 64 bits"));
  EXPECT_THAT(UnsignedError("99999999999999999999999"), HasSubstr("does not fit in 64 bits"));
}

// --- ParseBitRange ----------------------------------------------------------

TEST(ParseBitRangeTest, ReadsHighBitFirst) {
  auto parsed = ParseBitRange("31:16");
  ASSERT_TRUE(std::holds_alternative<BitRange>(parsed)) << BitsError("31:16");
  EXPECT_EQ(std::get<BitRange>(parsed).msb, 31u);
  EXPECT_EQ(std::get<BitRange>(parsed).lsb, 16u);
  EXPECT_EQ(std::get<BitRange>(parsed).width(), 16u);
}

TEST(ParseBitRangeTest, OneNumberIsOneBit) {
  auto parsed = ParseBitRange("5");
  ASSERT_TRUE(std::holds_alternative<BitRange>(parsed)) << BitsError("5");
  EXPECT_EQ(std::get<BitRange>(parsed).msb, 5u);
  EXPECT_EQ(std::get<BitRange>(parsed).lsb, 5u);
  EXPECT_EQ(std::get<BitRange>(parsed).width(), 1u);
}

TEST(ParseBitRangeTest, WholeSixtyFourBitsIsAllowed) {
  auto parsed = ParseBitRange("63:0");
  ASSERT_TRUE(std::holds_alternative<BitRange>(parsed)) << BitsError("63:0");
  EXPECT_EQ(std::get<BitRange>(parsed).width(), 64u);
}

TEST(ParseBitRangeTest, BoundsUseTheNumberSyntax) {
  auto parsed = ParseBitRange("0x1f:0b100");
  ASSERT_TRUE(std::holds_alternative<BitRange>(parsed)) << BitsError("0x1f:0b100");
  EXPECT_EQ(std::get<BitRange>(parsed).msb, 31u);
  EXPECT_EQ(std::get<BitRange>(parsed).lsb, 4u);
}

TEST(ParseBitRangeTest, LowBitFirstIsAnErrorThatSuggestsTheFix) {
  EXPECT_EQ(BitsError("0:3"), "bits \"0:3\" have the high bit first: write \"3:0\"");
}

TEST(ParseBitRangeTest, BitSixtyFourIsBeyondTheRegister) {
  EXPECT_THAT(BitsError("64"), HasSubstr("bit 64 is beyond bit 63"));
  EXPECT_THAT(BitsError("64:0"), AllOf(HasSubstr("in \"hi:lo\""), HasSubstr("bit 64 is beyond bit 63")));
  EXPECT_THAT(BitsError("70:64"), HasSubstr("bit 70 is beyond bit 63"));
}

TEST(ParseBitRangeTest, MissingOrBadBoundsAreErrors) {
  EXPECT_THAT(BitsError("3:"), AllOf(HasSubstr("in \"hi:lo\""), HasSubstr("empty value")));
  EXPECT_THAT(BitsError(":3"), AllOf(HasSubstr("in \"hi:lo\""), HasSubstr("empty value")));
  EXPECT_THAT(BitsError(""), HasSubstr("expected bits as \"hi:lo\" or one bit number"));
  EXPECT_THAT(BitsError("a"), HasSubstr("'a' is not a decimal digit"));
  EXPECT_THAT(BitsError("3:1:0"), HasSubstr("':' is not a decimal digit"));
}

// --- ParseDurationNs --------------------------------------------------------

TEST(ParseDurationTest, EveryUnitScalesToNanoseconds) {
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("80ns")), 80u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("2us")), 2'000u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("5ms")), 5'000'000u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("3s")), 3'000'000'000u);
}

TEST(ParseDurationTest, MillisecondsAreNotReadAsSeconds) {
  // "5ms" also ends in "s"; it must not be 5 seconds nor "5m" of something.
  auto parsed = ParseDurationNs("5ms");
  ASSERT_TRUE(std::holds_alternative<uint64_t>(parsed)) << DurationError("5ms");
  EXPECT_EQ(std::get<uint64_t>(parsed), 5'000'000u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("5ns")), 5u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("5us")), 5'000u);
}

TEST(ParseDurationTest, NumberPartUsesTheNumberSyntax) {
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("1_000ns")), 1'000u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("0x10ns")), 16u);
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("0ns")), 0u);  // a zero period is the counter's check to refuse
}

TEST(ParseDurationTest, MissingUnitIsAnError) {
  EXPECT_EQ(DurationError("80"), "expected a duration with a unit (ns, us, ms, s), got '80'");
  EXPECT_THAT(DurationError(""), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(DurationError("ns"), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(DurationError("s"), HasSubstr("expected a duration with a unit"));
}

TEST(ParseDurationTest, UnknownOrSpacedUnitIsAnError) {
  EXPECT_THAT(DurationError("80xs"), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(DurationError("5min"), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(DurationError("5 ms"), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(DurationError("80NS"), HasSubstr("expected a duration with a unit"));
}

TEST(ParseDurationTest, BadNumberBeforeTheUnitIsReported) {
  EXPECT_THAT(DurationError("5_ns"), HasSubstr("'_' only between digits"));
  EXPECT_THAT(DurationError("-5ns"), HasSubstr("'-' is not a decimal digit"));
  EXPECT_THAT(DurationError("99999999999999999999ns"), HasSubstr("does not fit in 64 bits"));
}

TEST(ParseDurationTest, DurationsThatOverflowNanosecondsAreTooLong) {
  // 2^64 ns is about 584 years: 18446744073 s fits, 18446744074 s does not.
  EXPECT_EQ(std::get<uint64_t>(ParseDurationNs("18446744073s")), 18'446'744'073'000'000'000u);
  EXPECT_EQ(DurationError("18446744074s"), "duration '18446744074s' is too long");
  EXPECT_THAT(DurationError("18446744073710ms"), HasSubstr("is too long"));
}

// --- Hex --------------------------------------------------------------------

TEST(HexTest, RendersLowercaseWithoutPadding) {
  EXPECT_EQ(Hex(0), "0x0");
  EXPECT_EQ(Hex(0x1f), "0x1f");
  EXPECT_EQ(Hex(0x2360), "0x2360");
  EXPECT_EQ(Hex(0xDEADBEEF), "0xdeadbeef");
  EXPECT_EQ(Hex(UINT64_MAX), "0xffffffffffffffff");
}

TEST(HexTest, RoundTripsThroughParseUnsigned) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{0x10}, uint64_t{0x8000'0000'0000'0000}, UINT64_MAX}) {
    EXPECT_TRUE(ParsesTo(Hex(v), v));
  }
}

}  // namespace
}  // namespace regemu::regdb
