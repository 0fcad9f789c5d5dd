// Exact counter rates (regdb/tick_rate.hpp, yaml/README.md "kind:
// counter"): a period or a frequency becomes ticks per ns as a fraction in
// lowest terms, decimals read as integers; zero and what 64-bit fractions
// cannot hold are errors.
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/tick_rate.hpp"

namespace regemu::regdb {
namespace {

using ::testing::HasSubstr;
using ::testing::Pair;

// {num, den}, or {0, 0} with the error printed.
std::pair<uint64_t, uint64_t> Period(std::string_view text) {
  auto parsed = ParseTickPeriod(text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    ADD_FAILURE() << "'" << text << "': " << error->message;
    return {0, 0};
  }
  return {std::get<TickRate>(parsed).num, std::get<TickRate>(parsed).den};
}

std::pair<uint64_t, uint64_t> Frequency(std::string_view text) {
  auto parsed = ParseTickFrequency(text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    ADD_FAILURE() << "'" << text << "': " << error->message;
    return {0, 0};
  }
  return {std::get<TickRate>(parsed).num, std::get<TickRate>(parsed).den};
}

template <typename Parse>
std::string ErrorOf(Parse parse, std::string_view text) {
  auto parsed = parse(text);
  auto* error = std::get_if<NumberError>(&parsed);
  return error ? error->message : "parsed";
}

TEST(TickRateTest, PeriodsInEveryUnit) {
  EXPECT_THAT(Period("80ns"), Pair(1u, 80u));
  EXPECT_THAT(Period("2us"), Pair(1u, 2'000u));
  EXPECT_THAT(Period("1ms"), Pair(1u, 1'000'000u));
  EXPECT_THAT(Period("1s"), Pair(1u, 1'000'000'000u));
  EXPECT_THAT(Period("1500ps"), Pair(2u, 3u));
  EXPECT_THAT(Period("500ps"), Pair(2u, 1u));  // faster than the clock's ns: 2 ticks a ns
  EXPECT_THAT(Period("0x10ns"), Pair(1u, 16u));
  EXPECT_THAT(Period("1_000ps"), Pair(1u, 1u));
}

// The HPET's COUNTER_CLK_PERIOD: 69841279 fs is 10^6 / 69841279 ticks per
// ns, already in lowest terms; written as a decimal of ns it is the same.
TEST(TickRateTest, HpetPeriodInFemtoseconds) {
  EXPECT_THAT(Period("69841279fs"), Pair(1'000'000u, 69'841'279u));
  EXPECT_THAT(Period("69.841279ns"), Pair(1'000'000u, 69'841'279u));
  EXPECT_THAT(Period("69.8412790000ns"), Pair(1'000'000u, 69'841'279u));
}

TEST(TickRateTest, FrequenciesAreExactDecimals) {
  EXPECT_THAT(Frequency("14318180Hz"), Pair(715'909u, 50'000'000u));  // 14318180 / 10^9
  EXPECT_THAT(Frequency("19.2MHz"), Pair(12u, 625u));                  // 0.0192 ticks a ns
  EXPECT_THAT(Frequency("32.768kHz"), Pair(64u, 1'953'125u));  // 32768 / 10^9
  EXPECT_THAT(Frequency("3GHz"), Pair(3u, 1u));
  EXPECT_THAT(Frequency("1Hz"), Pair(1u, 1'000'000'000u));
}

TEST(TickRateTest, AUnitIsRequired) {
  EXPECT_EQ(ErrorOf(ParseTickPeriod, "1000"), "expected a period with a unit (fs, ps, ns, us, ms, s), got '1000'");
  EXPECT_EQ(ErrorOf(ParseTickPeriod, "80 ns"), "expected a period with a unit (fs, ps, ns, us, ms, s), got '80 ns'");
  EXPECT_EQ(ErrorOf(ParseTickFrequency, "19.2"), "expected a frequency with a unit (Hz, kHz, MHz, GHz), got '19.2'");
  EXPECT_EQ(ErrorOf(ParseTickFrequency, "19.2mhz"),
            "expected a frequency with a unit (Hz, kHz, MHz, GHz), got '19.2mhz'");
}

TEST(TickRateTest, ZeroIsAnError) {
  EXPECT_THAT(ErrorOf(ParseTickPeriod, "0ns"), HasSubstr("a counter period must be longer than 0ns"));
  EXPECT_THAT(ErrorOf(ParseTickPeriod, "0.000fs"), HasSubstr("a counter period must be longer than 0ns"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "0MHz"), HasSubstr("a counter frequency must be above 0Hz"));
}

TEST(TickRateTest, MalformedDecimalsAreErrors) {
  EXPECT_THAT(ErrorOf(ParseTickPeriod, "1.ns"), HasSubstr("a decimal is digits, '.', digits"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, ".5MHz"), HasSubstr("a decimal is digits, '.', digits"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "1.2.3Hz"), HasSubstr("a decimal is digits, '.', digits"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "0x1.8Hz"), HasSubstr("a decimal is digits, '.', digits"));
}

// What no 64-bit fraction holds: a number beyond 64 bits (a frequency too
// high to write), a period too small or a frequency too slow for 64-bit
// numerators and denominators, a period too long.
TEST(TickRateTest, WhatCannotBeRepresentedIsAnError) {
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "18446744073709551616Hz"), HasSubstr("does not fit in 64 bits"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "1844674407370955161.6GHz"), HasSubstr("more digits than 64 bits hold"));
  EXPECT_THAT(ErrorOf(ParseTickPeriod, "0.00000000000001fs"),
              HasSubstr("period '0.00000000000001fs' cannot be represented exactly"));
  EXPECT_THAT(ErrorOf(ParseTickFrequency, "0.000000000001Hz"),
              HasSubstr("frequency '0.000000000001Hz' cannot be represented exactly"));
  EXPECT_THAT(ErrorOf(ParseTickPeriod, "18446744073709551615s"), HasSubstr("cannot be represented exactly"));
  // The largest that fit: 2^64-1 ns per tick; 2^64-1 GHz, 2^64-1 ticks a ns.
  EXPECT_THAT(Period("18446744073709551615ns"), Pair(1u, UINT64_MAX));
  EXPECT_THAT(Frequency("18446744073709551615GHz"), Pair(UINT64_MAX, 1u));
}

}  // namespace
}  // namespace regemu::regdb
