// `regemu run` on the force-wake scripts (tests/scripts/forcewake_*.script)
// against tests/data/forcewake: i915's get/put passes, touching a render
// register before the ack fails with an unannounced `forcewake` violation.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using RunResult = regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;

TEST(RegemuForcewakeCli, DatabaseChecksClean) {
  RunResult r = RunRegemu("check tests/data/forcewake/device.yaml");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

TEST(RegemuForcewakeCli, GetPutWithAckPollingPasses) {
  RunResult r = RunRegemu("run tests/data/forcewake/device.yaml tests/scripts/forcewake_get_put.script");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  EXPECT_THAT(r.out,
              AllOf(HasSubstr("write32 mmio 0xa278 0x00010001  # t=0ns seq=4 FORCEWAKE_RENDER_GEN9\n"
                              "expect32 mmio 0xd84 0x00000000  # t=0ns seq=5 FORCEWAKE_ACK_RENDER_GEN9\n"),
                    HasSubstr("expect32 mmio 0xd84 0x00000001"),
                    HasSubstr("write32 mmio 0x2030 0x00000040  # t=10000ns seq=17 RING_TAIL_RCS\n"),
                    HasSubstr("announced violation: forcewake: read32 mmio 0x2034 (RING_HEAD_RCS) value 0x00000000: "
                              "forcewake domain 'render' is asleep at 0x2034 (range 0x2000..0x26ff): write "
                              "0x00010001 to FORCEWAKE_RENDER_GEN9 and wait for bit 0 of FORCEWAKE_ACK_RENDER_GEN9"),
                    HasSubstr("forcewake domain 'gt' is asleep at 0xa008 (range 0x9600..0xafff)"),
                    HasSubstr("PASS tests/scripts/forcewake_get_put.script: "),
                    HasSubstr("2 violation(s): 2 announced, 0 not announced (strict)\n")));
}

TEST(RegemuForcewakeCli, AccessBeforeTheAckFails) {
  RunResult r = RunRegemu("run tests/data/forcewake/device.yaml tests/scripts/forcewake_get_put_bad.script");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("tests/scripts/forcewake_get_put_bad.script:15: error: violation not announced "
                                     "by expect-violation: forcewake: write32 mmio 0x2034 (RING_HEAD_RCS) value 0x00000000: "
                                     "forcewake domain 'render' is asleep"),
                           HasSubstr("write 0x00010001 to FORCEWAKE_RENDER_GEN9"),
                           HasSubstr("the accesses before it:"), HasSubstr("FAIL "),
                           HasSubstr("0 announced, 1 not announced (strict)")));
  // Lenient: recorded and printed, not failing.
  RunResult lenient =
      RunRegemu("run --lenient tests/data/forcewake/device.yaml tests/scripts/forcewake_get_put_bad.script");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
  EXPECT_THAT(lenient.out, HasSubstr("violation (recorded, not failing): forcewake"));
}

// yaml/icl: an ack is an event on the device's queue, so a bare `step`
// after a get or a put goes to it (500ns later); a poll keeps its interval
// (50ms / 10000 reads), reading the ack at 5000ns, not at its instant.
TEST(RegemuForcewakeCli, IceLakeStepReachesTheAck) {
  RunResult r = RunRegemu("run yaml/icl tests/scripts/icl_forcewake_step.script");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("expect32 mmio 0xd84 0x00000001  # t=500ns"),
                           HasSubstr("expect32 mmio 0xd84 0x00000000  # t=1000ns"),
                           HasSubstr("expect32 mmio 0x9140 0x000e00fa  # t=6000ns"),
                           HasSubstr("PASS tests/scripts/icl_forcewake_step.script: ")));
}

// yaml/icl's Gen11 domains: each engine's ring registers wait for their own
// domain, RING_TAIL writes are shadowed, uncore registers are never gated.
TEST(RegemuForcewakeCli, IceLakeDomainsGateEachEngineUntilItsGet) {
  RunResult r = RunRegemu("run yaml/icl tests/scripts/icl_forcewake_domains.script");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("6 violation(s): 6 announced, 0 not announced (strict)"));
}

}  // namespace
