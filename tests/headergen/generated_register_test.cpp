// What the generated C++ header does at run time, on the golden device
// (tests/headergen/data/golden.yaml) over a plain array.
#include <gtest/gtest.h>

#include <cstdint>

#include "regemu/regs/golden.hpp"
#include "regemu/regs/hsw.hpp"  // two devices in one translation unit
#include "tests/headergen/array_io.hpp"

namespace {

namespace golden = ::regemu::regs::golden;
using regemu::testing::ArrayIo;

static_assert(!regemu::hwreg::RegisterIo<int>, "an int is not an IO object");
// Registers are constexpr values: a field's reset is known at compile time.
static_assert(golden::POLICIES::Get().rest() == 5);
static_assert(golden::MODE_CTL::Get().mode_value() == golden::MODE_CTL::MODE::Value::RUN);
// Ranges: base and size of each alias window and reserved range.
static_assert(golden::AUX_VIEW_BASE == 0x9000 && golden::AUX_VIEW_SIZE == 0x1000);
static_assert(golden::HOLE_BASE == 0x8000 && golden::HOLE_SIZE == 0x100);

TEST(GeneratedRegister, GetHoldsTheResetValueAndKnowsItsOffset) {
  auto reg = golden::WIDE_REG::Get();
  EXPECT_EQ(reg.reg_offset(), 0x10u);
  EXPECT_EQ(reg.reg_value(), 0x8000000000000001u);
  EXPECT_EQ(reg.top(), 1u);
  EXPECT_EQ(reg.wide_reg(), 1u);  // the field named like its register
  EXPECT_EQ(golden::WIDE_REG::WIDE_REG_FIELD::kMask, 1u);
  EXPECT_EQ(golden::BYTE_REG::Get().reg_value(), 0x81u);
  EXPECT_EQ(golden::WIDE_VIEW::kAliasOf, "WIDE_REG");
}

TEST(GeneratedRegister, ReadModifyWriteThroughTheIo) {
  ArrayIo io(0x10000);
  io.Write(0x0, 32, 0xa0000000);
  golden::POLICIES::Get().ReadFrom(io).set_rest(0x3).set_rw_bit(1).WriteTo(io);
  EXPECT_EQ(io.Read(0x0, 32), 0x60000001u);
  EXPECT_EQ(golden::POLICIES::FromValue(0x60000001).rest(), 3u);
}

TEST(GeneratedRegister, MustBeZeroAndReservedBitsAreForcedToZeroOnWrite) {
  ArrayIo io(0x10000);
  // HALF_REG: LOW 7:0 ro, 11:8 reserved (no field), HIGH 15:12 mbz.
  golden::HALF_REG::FromValue(0xffff).WriteTo(io);
  EXPECT_EQ(io.Read(0xa, 16), 0x00ffu);
  EXPECT_EQ(golden::HALF_REG::kMustBeZero, 0xf000u);
  EXPECT_EQ(golden::HALF_REG::kZeroOnWrite, 0xff00u);
}

TEST(GeneratedRegister, FieldConstantsAndPolicyFacets) {
  using F = golden::POLICIES::W1C_BIT;
  EXPECT_EQ(F::kShift, 11u);
  EXPECT_EQ(F::kWidth, 1u);
  EXPECT_EQ(F::kMask, uint64_t{1} << 11);
  EXPECT_EQ(F::kAccess, "w1c");
  EXPECT_TRUE(F::kWritable);
  EXPECT_FALSE(golden::POLICIES::WO_BIT::kReadable);
  EXPECT_TRUE(golden::POLICIES::RC_BIT::kReadHasSideEffect);
  EXPECT_TRUE(golden::POLICIES::HW_BIT::kVolatile);
}

TEST(GeneratedRegister, MaskedRegisterHelpers) {
  using R = golden::MODE_CTL;
  EXPECT_EQ(R::MaskedEnable(static_cast<uint32_t>(R::ENABLE::kMask)), 0x00100010u);
  EXPECT_EQ(R::MaskedDisable(static_cast<uint32_t>(R::ENABLE::kMask)), 0x00100000u);
  ArrayIo io(0x10000);
  R::Get().set_mode(R::MODE::Value::HALT).WriteMasked(io, static_cast<uint32_t>(R::MODE::kMask));
  EXPECT_EQ(io.Read(0x4, 32), 0x000f000fu);
  // WriteTo keeps bits 31:16: they are the mask, not reserved bits.
  R::FromValue(R::MaskedEnable(static_cast<uint32_t>(R::ENABLE::kMask))).WriteTo(io);
  EXPECT_EQ(io.Read(0x4, 32), 0x00100010u);
}

TEST(GeneratedRegister, ArraysAreFunctionsOfTheElementNumber) {
  using C = golden::COUNTER_VALUE;
  EXPECT_EQ(C::kCount, 4u);
  EXPECT_EQ(C::kStart, 1u);
  EXPECT_EQ(C::Get(1).reg_offset(), 0x100u);
  EXPECT_EQ(C::Get(4).reg_offset(), 0x118u);
}

TEST(GeneratedRegister, BlocksAreFunctionsOfTheInstanceBase) {
  namespace ring = golden::RING;
  EXPECT_EQ(ring::RING_TAIL::Get(ring::RCS0_BASE).reg_offset(), 0x2030u);
  EXPECT_EQ(ring::RING_TAIL::Get(ring::BCS0_BASE).reg_offset(), 0x3030u);
  EXPECT_EQ(ring::RING_CTX::Get(ring::BCS0_BASE, 2).reg_offset(), 0x3108u);
  ArrayIo io(0x10000);
  ring::RING_TAIL::Get(ring::BCS0_BASE).set_tail(0x40).WriteTo(io);
  EXPECT_EQ(io.Read(0x3030, 32), 0x200u);
  EXPECT_EQ(io.Read(0x2030, 32), 0u);
}

TEST(GeneratedRegister, TwoDevicesLiveInTheirOwnNamespaces) {
  EXPECT_EQ(golden::kDevice, "golden");
  EXPECT_EQ(regemu::regs::hsw::kDevice, "hsw");
  EXPECT_EQ(regemu::regs::hsw::OAPERF_A::Get(31).reg_offset(), 0x287cu);
}

TEST(GeneratedRegister, KeywordFieldNamesGetATrailingUnderscore) {
  EXPECT_EQ(golden::MSR_PLATFORM_INFO::FromValue(0x2001).default_(), 1u);
  EXPECT_EQ(golden::MSR_PLATFORM_INFO::Get().ratio(), 0x20u);
}

}  // namespace
