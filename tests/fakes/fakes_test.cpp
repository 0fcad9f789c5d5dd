// The driver-test kit (fakes/): the MmioBus seam and its emulator-backed
// fake, the gmock mock delegating to it, the DeviceTest fixture and the
// matchers, against the shipped Haswell database.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"
#include "regemu/regs/hsw.hpp"

namespace regemu::fakes {
namespace {

using ::testing::_;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr uint64_t kOaControl = 0x2360;
constexpr uint64_t kOaStatus2 = 0x2368;

class FakesTest : public DeviceTest {
 public:
  void RunTearDown() { DeviceTest::TearDown(); }

 protected:
  void SetUp() override { LoadDevice(ShippedDatabase("hsw")); }

  // Why the matcher says no, as a test would print it.
  template <typename Matcher>
  std::string Explain(const Matcher& matcher) {
    ::testing::StringMatchResultListener listener;
    ::testing::Matcher<const emulator::Device&> m = matcher;
    EXPECT_FALSE(m.MatchAndExplain(device(), &listener));
    return listener.str();
  }
};

// gen7_init_oa_buffer: OA must not be enabled before its buffer is programmed.
void ProgramOaBuffer(MmioBus& mmio) {
  mmio.Write32(kOaStatus2, 0x01000001);
  mmio.Write32(0x23B0, 0x01000000);  // OABUFFER
  mmio.Write32(0x2364, 0x01000038);  // OASTATUS1: tail, 16 MiB
}

TEST_F(FakesTest, FakeBusGoesThroughTheFrontdoor) {
  MmioBus& mmio = bus("mmio");
  ProgramOaBuffer(mmio);
  mmio.Write32(kOaControl, 0x1);
  EXPECT_EQ(mmio.Read32(kOaControl), 0x1u);
  EXPECT_EQ(mmio.Read8(kOaControl), 0x1u);
  EXPECT_THAT(device(), FieldIs("OACONTROL", 1));
  EXPECT_EQ(device().access_count(), 6u);
}

TEST_F(FakesTest, UnknownSpaceIsADocumentedError) {
  EXPECT_THROW(bus("gttmmadr"), std::invalid_argument);
}

TEST_F(FakesTest, MockDelegatesToTheFakeAndChecksOnlyWhatTheTestExpects) {
  ::testing::NiceMock<MockMmioBus> mock;
  mock.DelegateToFake(device(), "mmio");
  EXPECT_CALL(mock, Write(_, _, _)).Times(::testing::AnyNumber());  // the rest: delegated, unchecked
  EXPECT_CALL(mock, Write(kOaStatus2, 32, 0x01000001));
  EXPECT_CALL(mock, Read(kOaStatus2, 32));
  mock.Write32(kOaControl, 0);
  mock.Write32(kOaStatus2, 0x01000001);
  EXPECT_EQ(mock.Read32(kOaStatus2), 0x01000001u);  // the fake kept the state
  EXPECT_THAT(device(), FieldIs("OASTATUS2.HEAD_POINTER", 0x01000001 >> 6));
}

TEST_F(FakesTest, DriverTemplatesTakeTheBusThroughTheConcept) {
  auto enable = []<MmioBusLike Io>(Io& io) { io.Write(kOaControl, 32, io.Read(kOaControl, 32) | 1); };
  ProgramOaBuffer(bus("mmio"));
  enable(bus("mmio"));
  EXPECT_THAT(device(), FieldIs("OACONTROL", 1));
}

TEST_F(FakesTest, MaskedWriteHelpersFollowI915) {
  EXPECT_EQ(MaskedBitEnable(0x1), 0x00010001u);
  EXPECT_EQ(MaskedBitDisable(0x1), 0x00010000u);
  EXPECT_EQ(MaskedField(0x8001, 0x8000), 0x80018000u);
}

TEST_F(FakesTest, FieldIsExplainsTheActualValueAndBadNames) {
  bus("mmio").Write32(kOaStatus2, 0x1000041);
  EXPECT_THAT(device(), FieldIs("OASTATUS2.HEAD_POINTER", 0x40001));
  EXPECT_THAT(Explain(FieldIs("OASTATUS2.HEAD_POINTER", 7)), HasSubstr("OASTATUS2.HEAD_POINTER is 0x40001"));
  EXPECT_THAT(Explain(FieldIs("OASTATUS2.HEAD_POINTR", 7)),
              HasSubstr("register 'OASTATUS2' has no field 'HEAD_POINTR' (did you mean 'HEAD_POINTER'?)"));
  EXPECT_THAT(Explain(FieldIs("OACONTRL", 7)),
              HasSubstr("device 'hsw' has no register 'OACONTRL' (did you mean 'OACONTROL'?)"));
  EXPECT_THAT(Explain(Wrote("OACONTRL", 1)), HasSubstr("(did you mean 'OACONTROL'?)"));
}

TEST_F(FakesTest, AccessesInOrderFindsASubsequenceAndSaysWhatIsMissing) {
  MmioBus& mmio = bus("mmio");
  mmio.Write32(kOaControl, 0);
  ProgramOaBuffer(mmio);
  mmio.Read32(kOaStatus2);
  mmio.Write32(kOaControl, 1);
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("OACONTROL", 0), ReadOf("OASTATUS2", 0x1000001),
                                         WriteOf("OACONTROL", 1)}));
  EXPECT_THAT(device(), Wrote("OASTATUS2", 0x1000001));
  EXPECT_THAT(device(), Not(AccessesInOrder({WriteOf("OACONTROL", 1), WriteOf("OASTATUS2")})));
  // The explanation shows the order that did happen, not only what is missing.
  std::string wrong_order = Explain(AccessesInOrder({WriteOf("OACONTROL", 1), WriteOf("OASTATUS2")}));
  EXPECT_THAT(wrong_order, HasSubstr("found no write of OASTATUS2 after the write of OACONTROL = 0x1"));
  EXPECT_THAT(wrong_order, ::testing::ContainsRegex("what happened to these registers, in order.*\n"
                                                    "    write32 mmio 0x2360 0x0+ .*\n"
                                                    "    write32 mmio 0x2368 0x0*1000001 .*\n"
                                                    "    expect32 mmio 0x2368 0x0*1000001 .*\n"
                                                    "    write32 mmio 0x2360 0x0*1 "));
  EXPECT_THAT(Explain(Wrote("OACONTROL", 5)), HasSubstr("found no write of OACONTROL = 0x5"));
}

// A violation left in the device fails the test in TearDown, with the
// register, the field and the rule; TakeViolations() acknowledges it.
FakesTest* g_fixture = nullptr;

TEST_F(FakesTest, TearDownFailsOnAViolationTheTestDidNotTake) {
  bus("mmio").Write32(kOaStatus2, 0x21);  // bit 5 is must-be-zero
  g_fixture = this;
  EXPECT_NONFATAL_FAILURE(g_fixture->RunTearDown(), "mbz: write32 mmio 0x2368 (OASTATUS2.RESERVED_5)");
  std::vector<emulator::Violation> taken = TakeViolations();
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].kind, emulator::ViolationKind::kMbz);
  EXPECT_THAT(taken, ::testing::ElementsAre(ViolationIs("mbz", "OASTATUS2", "must-be-zero")));  // as README shows
}

// The generated header clears must-be-zero bits on write, so code written
// with it cannot trip the rule; only a raw write can (docs/driver-tests.md).
TEST_F(FakesTest, GeneratedHeadersCannotWriteMustBeZeroBits) {
  regs::hsw::OASTATUS2::FromValue(0x21).WriteTo(bus("mmio"));
  EXPECT_THAT(device(), Wrote("OASTATUS2", 0x1));
  EXPECT_TRUE(TakeViolations().empty());
}

TEST(ShippedDatabaseTest, ABrokenDatabaseThrowsWithItsDiagnostics) {
  try {
    CompileDatabase(std::string(REGEMU_SOURCE_DIR) + "/tests/data/hsw_literal");
    FAIL() << "a database with errors compiled";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), HasSubstr("overlaps register 'CEC3_1'"));
  }
}

}  // namespace
}  // namespace regemu::fakes
