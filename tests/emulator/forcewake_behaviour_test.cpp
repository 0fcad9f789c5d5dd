// The `forcewake` behaviour (yaml/README.md "behaviours", i915 intel_uncore.c)
// and the core's access gate: masked request registers, acks that follow after
// `latency`, and accesses to a sleeping domain's range refused before decode.
#include <cstdint>
#include <map>
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

// render powers 0x2000-0x26FF, gt 0x2700-0x2FFF and 0xA000-0xAFFF (where
// FW_GT itself lives, never gated), both 0x9400-0x97FF; the rest is always on.
constexpr const char* kDatabase = R"(device: fw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_RENDER, space: mmio, offset: 0xA278, masked: true}
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84, access: ro}
  - {name: FW_GT, space: mmio, offset: 0xA188, masked: true}
  - {name: FW_ACK_GT, space: mmio, offset: 0x0D88, access: ro}
  - {name: RENDER_REG, space: mmio, offset: 0x2010}
  - {name: RING_TAIL, space: mmio, offset: 0x2030}
  - {name: GT_REG, space: mmio, offset: 0x2710}
  - {name: ALWAYS_REG, space: mmio, offset: 0x3000}
  - {name: BOTH_REG, space: mmio, offset: 0x9400}
behaviours:
  - kind: forcewake
    latency: LATENCY
    domains:
      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}
      - {name: gt, request: FW_GT, ack: FW_ACK_GT}
    ranges:
      - {first: 0x2000, last: 0x26FF, domains: [render]}
      - {first: 0x2700, last: 0x2FFF, domains: [gt]}
      - {first: 0x3000, last: 0x93FF, domains: []}
      - {first: 0x9400, last: 0x97FF, domains: [render, gt]}
      - {first: 0x9800, last: 0x9FFF, domains: []}
      - {first: 0xA000, last: 0xAFFF, domains: [gt]}
    shadowed: [RING_TAIL]
)";

constexpr uint64_t kGet = 0x00010001;
constexpr uint64_t kPut = 0x00010000;

std::unique_ptr<Device> ForcewakeDevice(const std::string& latency = "500ns") {
  std::string yaml = kDatabase;
  yaml.replace(yaml.find("LATENCY"), 7, latency);
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  options.coverage = true;
  return MakeDevice(yaml, std::move(options));
}

struct Fw {
  std::unique_ptr<Device> device;
  const Model& model() const { return device->model(); }
  RegisterId Reg(const char* name) const { return RegisterNamed(model(), name); }
  uint64_t Read(const char* name) { return device->ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device->WriteRegister(Reg(name), value); }
  uint64_t Peek(const char* name) const { return device->PeekRegister(Reg(name)); }
};

// intel_uncore.c fw_domains_get_with_fallback: get = write 0x00010001, poll the ack's bit 0; put = 0x00010000, no wait.
TEST(ForcewakeBehaviourTest, GetAccessPut) {
  Fw fw{ForcewakeDevice()};
  fw.Write("FW_RENDER", kGet);
  EXPECT_EQ(fw.Peek("FW_RENDER"), 1u);
  int polls = 0;
  while ((fw.Read("FW_ACK_RENDER") & 1) == 0 && polls < 100) {
    fw.device->Advance(100);
    ++polls;
  }
  EXPECT_EQ(polls, 5);
  fw.Write("RENDER_REG", 0x1234);
  EXPECT_EQ(fw.Read("RENDER_REG"), 0x1234u);
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
  fw.Write("FW_RENDER", kPut);
  EXPECT_EQ(fw.Peek("FW_RENDER"), 0u);
  fw.device->Advance(500);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  EXPECT_EQ(fw.Read("RENDER_REG"), 0u);
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
}

TEST(ForcewakeBehaviourTest, AckFollowsAfterLatency) {
  Fw fw{ForcewakeDevice()};
  fw.Write("FW_RENDER", kGet);
  fw.device->Advance(499);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.device->Advance(1);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
  // A put takes as long to show.
  fw.Write("FW_RENDER", kPut);
  fw.device->Advance(499);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
  fw.device->Advance(1);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
}

// Each ack is an event on the device's queue: the next event is due at the
// ack's instant, and going there shows it. A script's poll keeps its own
// interval across it (PollWait::kKeepsInterval), so it is no poll stop.
TEST(ForcewakeBehaviourTest, AcksAreEventsOnTheDevicesQueue) {
  Fw fw{ForcewakeDevice()};
  fw.device->Advance(1000);
  fw.Write("FW_RENDER", kGet);
  EXPECT_EQ(fw.device->next_event_ns(), 1500u);
  EXPECT_EQ(fw.device->pending_events(), 1u);
  EXPECT_EQ(fw.device->next_poll_stop_ns(), std::nullopt);
  fw.device->Advance(*fw.device->next_event_ns() - fw.device->now_ns());
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
  EXPECT_EQ(fw.device->next_event_ns(), std::nullopt);

  // A snapshot holds an ack in flight; restored, it comes at its instant.
  fw.Write("FW_RENDER", kPut);
  DeviceSnapshot snapshot = fw.device->Snapshot();
  fw.device->Advance(500);
  EXPECT_EQ(fw.Peek("FW_ACK_RENDER"), 0u);
  fw.device->Restore(snapshot);
  EXPECT_EQ(fw.Peek("FW_ACK_RENDER"), 1u);
  EXPECT_EQ(fw.device->next_event_ns(), 2000u);
  fw.device->Advance(500);
  EXPECT_EQ(fw.Peek("FW_ACK_RENDER"), 0u);

  // Reset drops an ack in flight with the queue.
  fw.Write("FW_RENDER", kGet);
  fw.device->Reset();
  EXPECT_EQ(fw.device->pending_events(), 0u);
  fw.device->Advance(500);
  EXPECT_EQ(fw.Peek("FW_ACK_RENDER"), 0u);
}

TEST(ForcewakeBehaviourTest, ZeroLatencyAcksAtOnce) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("FW_RENDER", kGet);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
  EXPECT_EQ(fw.Read("RENDER_REG"), 0u);
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
}

// `inject forcewake-latency NS` changes the wake time of requests written
// after it, until reset; a bad argument is refused with the usage.
TEST(ForcewakeBehaviourTest, InjectedLatencyAppliesToLaterRequestsUntilReset) {
  Fw fw{ForcewakeDevice()};
  ASSERT_EQ(fw.device->Inject("forcewake-latency", std::vector<std::string>{"2000"}), "");
  fw.Write("FW_RENDER", kGet);
  fw.device->Advance(1999);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.device->Advance(1);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);

  EXPECT_THAT(fw.device->Inject("forcewake-latency", std::vector<std::string>{"soon"}),
              HasSubstr("usage: inject forcewake-latency NANOSECONDS"));
  EXPECT_THAT(fw.device->Inject("forcewake-latency", std::vector<std::string>{}), HasSubstr("usage"));

  fw.device->Reset();  // back to the database's 500ns
  fw.Write("FW_RENDER", kGet);
  fw.device->Advance(500);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
}

// After a latency change acks still follow requests in order: a put with a
// shorter latency does not overtake the get before it, which would leave
// the domain awake (or asleep) against the last request.
TEST(ForcewakeBehaviourTest, AcksFollowRequestsInOrderAcrossALatencyChange) {
  Fw fw{ForcewakeDevice()};
  ASSERT_EQ(fw.device->Inject("forcewake-latency", std::vector<std::string>{"2000"}), "");
  fw.Write("FW_RENDER", kGet);
  ASSERT_EQ(fw.device->Inject("forcewake-latency", std::vector<std::string>{"0"}), "");
  fw.Write("FW_RENDER", kPut);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u) << "the put's ack waits for the get's";
  fw.device->Advance(1999);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.device->Advance(1);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u) << "get, then put: the last request wins";
  fw.Write("FW_RENDER", kGet);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u) << "nothing queued: latency 0 acks at once";
}

// Asleep: the read returns 0 (not the value), the write is dropped, and the
// violation names the register, the domain and the request register.
TEST(ForcewakeBehaviourTest, AccessWhileAsleepIsRefused) {
  Fw fw{ForcewakeDevice()};
  fw.device->PokeRegister(fw.Reg("RENDER_REG"), 0x1234);
  EXPECT_EQ(fw.Read("RENDER_REG"), 0u);
  fw.Write("RENDER_REG", 0x55);
  EXPECT_EQ(fw.Peek("RENDER_REG"), 0x1234u);
  std::vector<Violation> violations = fw.device->violations();
  ASSERT_EQ(violations.size(), 2u);
  for (const Violation& v : violations) {
    EXPECT_EQ(v.kind, ViolationKind::kForcewake);
    EXPECT_EQ(v.register_name, "RENDER_REG");
    EXPECT_EQ(v.offset, 0x2010u);
    EXPECT_THAT(v.rule, HasSubstr("domain 'render' is asleep"));
    EXPECT_THAT(v.rule, HasSubstr("write 0x00010001 to FW_RENDER"));
    EXPECT_THAT(v.rule, HasSubstr("FW_ACK_RENDER"));
  }
  std::vector<TraceEntry> trace = fw.device->Trace(2);
  ASSERT_EQ(trace.size(), 2u);
  EXPECT_EQ(trace[0].outcome, TraceOutcome::kViolation);
  EXPECT_EQ(trace[1].outcome, TraceOutcome::kViolation);
  EXPECT_EQ(trace[0].value, 0u);
}

// The domain check comes before decode: an offset with no register is gated
// too (forcewake, not unclaimed); once awake it is plainly unclaimed.
TEST(ForcewakeBehaviourTest, AddressWithoutRegisterIsGated) {
  Fw fw{ForcewakeDevice("0ns")};
  EXPECT_EQ(fw.device->Read(0, 0x2100, 32), 0u);
  fw.device->Write(0, 0x2100, 32, 1);
  std::vector<Violation> violations = fw.device->violations();
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0].kind, ViolationKind::kForcewake);
  EXPECT_EQ(violations[0].register_name, "");
  EXPECT_EQ(violations[0].offset, 0x2100u);
  EXPECT_THAT(violations[0].rule, HasSubstr("asleep at 0x2100"));
  fw.device->ClearViolations();
  fw.Write("FW_RENDER", kGet);
  fw.device->Read(0, 0x2100, 32);
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kUnclaimed));
}

// A narrower access inside a gated register takes the slow path: still gated.
TEST(ForcewakeBehaviourTest, PartialAccessIsGated) {
  Fw fw{ForcewakeDevice()};
  fw.device->Read(0, 0x2012, 16);
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
}

TEST(ForcewakeBehaviourTest, ShadowedWriteNeedsNoForcewake) {
  Fw fw{ForcewakeDevice()};
  fw.Write("RING_TAIL", 0x40);
  EXPECT_EQ(fw.Peek("RING_TAIL"), 0x40u);
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
  EXPECT_EQ(fw.Read("RING_TAIL"), 0u);  // reads are still gated
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
}

// Coverage: a domain is woken when its ack first shows an awake bit and
// slept when the last one goes; a shadowed write while asleep is a path.
TEST(ForcewakeBehaviourTest, CoversWakesSleepsAndShadowedWrites) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("RING_TAIL", 0x40);          // render asleep: the shadowed write passes
  fw.Write("FW_RENDER", kGet);          // woken
  fw.Write("FW_RENDER", 0x80008000);    // the fallback bit too: still awake
  fw.Write("FW_RENDER", kPut);          // the fallback holds it
  fw.Write("FW_RENDER", 0x80000000);    // slept
  fw.Write("RING_TAIL", 0x41);
  EXPECT_THAT(testing_support::PointHits(*fw.device, "forcewake"),
              UnorderedElementsAre(Pair("domains woken/render", 1), Pair("domains woken/gt", 0),
                                   Pair("domains slept/render", 1), Pair("domains slept/gt", 0),
                                   Pair("shadowed writes/while asleep", 2)));
}

// The same on the shipped Ice Lake: its fourteen domains, i915's get and put of render.
TEST(ForcewakeBehaviourTest, CoversTheIceLakeDomains) {
  DeviceOptions options;
  options.coverage = true;
  Device device(testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl"), options);
  const Model& model = device.model();
  device.Write(testing_support::SpaceNamed(model, "config"), 0x04, 16, 0x0006);  // memory decode on
  device.WriteRegister(RegisterNamed(model, "FORCEWAKE_RENDER_GEN9"), kGet);
  for (int polls = 0; (device.ReadRegister(RegisterNamed(model, "FORCEWAKE_ACK_RENDER_GEN9")) & 1) == 0; ++polls) {
    ASSERT_LT(polls, 1000);
    device.Advance(1000);
  }
  device.WriteRegister(RegisterNamed(model, "FORCEWAKE_RENDER_GEN9"), kPut);
  device.Advance(1'000'000);
  std::map<std::string, uint64_t> hits = testing_support::PointHits(device, "forcewake");
  EXPECT_EQ(hits.size(), 2u * 14 + 1);
  EXPECT_EQ(hits.at("domains woken/render"), 1u);
  EXPECT_EQ(hits.at("domains slept/render"), 1u);
  EXPECT_EQ(hits.at("domains woken/gt"), 0u);
}

TEST(ForcewakeBehaviourTest, ReplicatedRangeNeedsEveryDomain) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("FW_RENDER", kGet);
  fw.Read("BOTH_REG");
  std::vector<Violation> violations = fw.device->violations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_THAT(violations[0].rule, HasSubstr("domain 'gt' is asleep"));
  EXPECT_THAT(violations[0].rule, HasSubstr("FW_GT"));
  fw.device->ClearViolations();
  fw.Write("FW_GT", kGet);
  fw.Write("BOTH_REG", 7);
  EXPECT_EQ(fw.Read("BOTH_REG"), 7u);
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
}

// Other domains and always-on ranges are unaffected; request and ack
// registers are never gated, even inside a gated range (FW_GT at 0xA188).
TEST(ForcewakeBehaviourTest, AlwaysOnAndOwnRegistersAreNotGated) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("ALWAYS_REG", 3);
  EXPECT_EQ(fw.Read("ALWAYS_REG"), 3u);
  fw.Write("FW_GT", kPut);
  fw.Read("FW_ACK_GT");
  fw.Write("FW_RENDER", kGet);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
  fw.Read("GT_REG");
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
  // The plain fast path stays for ungated registers only.
  EXPECT_TRUE(fw.model().registers()[fw.Reg("ALWAYS_REG")].has(RegisterModel::kPlain));
  EXPECT_FALSE(fw.model().registers()[fw.Reg("RENDER_REG")].has(RegisterModel::kPlain));
  EXPECT_TRUE(fw.model().registers()[fw.Reg("RENDER_REG")].has(RegisterModel::kGated));
  EXPECT_FALSE(fw.model().registers()[fw.Reg("FW_GT")].has(RegisterModel::kGated));
  // Reads without side effects take the read fast path even when not plain
  // (the ack is ro); gated registers never do.
  EXPECT_TRUE(fw.model().registers()[fw.Reg("FW_ACK_GT")].has(RegisterModel::kPlainRead));
  EXPECT_FALSE(fw.model().registers()[fw.Reg("RENDER_REG")].has(RegisterModel::kPlainRead));
}

// intel_uncore.c fw_domains_get_with_fallback: the fallback bit 15 alone keeps the domain awake.
TEST(ForcewakeBehaviourTest, FallbackBitKeepsDomainAwake) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("FW_RENDER", 0x80008000);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0x8000u);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
  fw.Write("FW_RENDER", 0x80000000);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
}

TEST(ForcewakeBehaviourTest, UserBitWakesAndKernelPutKeepsIt) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("FW_RENDER", 0x00020002);
  fw.Write("FW_RENDER", kGet);
  fw.Write("FW_RENDER", kPut);  // the kernel lets go; the user bit holds
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 2u);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), IsEmpty());
}

// A masked write without enable bits changes nothing (2.2): the request is
// a `hazard` (the driver meant _MASKED_BIT_ENABLE), and the domain stays asleep.
TEST(ForcewakeBehaviourTest, MaskedWriteWithoutEnableChangesNothing) {
  Fw fw{ForcewakeDevice()};
  fw.Write("FW_RENDER", 0x00000001);
  fw.device->Advance(1000);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kHazard, ViolationKind::kForcewake));
}

// The Gen11 domain reset at init, 0xFFFF0000, clears every bit (2.2).
TEST(ForcewakeBehaviourTest, DomainResetClearsAllBits) {
  Fw fw{ForcewakeDevice("0ns")};
  fw.Write("FW_RENDER", 0x80038003);
  fw.Write("FW_RENDER", 0xFFFF0000);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
}

TEST(ForcewakeBehaviourTest, ResetPutsDomainsToSleep) {
  Fw fw{ForcewakeDevice()};
  fw.Write("FW_RENDER", kGet);
  fw.device->Advance(500);
  fw.Write("FW_GT", kGet);  // pending when the reset comes: dropped
  fw.device->Reset();
  fw.device->Advance(1000);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  EXPECT_EQ(fw.Read("FW_ACK_GT"), 0u);
  fw.Read("RENDER_REG");
  EXPECT_THAT(Kinds(*fw.device), ElementsAre(ViolationKind::kForcewake));
}

TEST(ForcewakeBehaviourTest, SnapshotKeepsPendingAcks) {
  Fw fw{ForcewakeDevice()};
  fw.Write("FW_RENDER", kGet);
  fw.device->Advance(200);
  DeviceSnapshot snapshot = fw.device->Snapshot();
  fw.device->Advance(300);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
  fw.device->Restore(snapshot);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.device->Advance(299);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 0u);
  fw.device->Advance(1);
  EXPECT_EQ(fw.Read("FW_ACK_RENDER"), 1u);
}

// One access has one gate: gated ranges of two behaviours must not overlap.
// An access has one gate: the check refuses the second behaviour at its
// `kind:` (regdb/checks/model_rules.cpp), before the model is compiled.
TEST(ForcewakeBehaviourTest, OverlappingGatesAreRefusedByTheCheck) {
  std::string yaml = kDatabase;
  yaml.replace(yaml.find("LATENCY"), 7, "0ns");
  yaml += R"(  - kind: forcewake
    name: again
    domains:
      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}
    ranges:
      - {first: 0x2600, last: 0x26FF, domains: [render]}
)";
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(yaml);
  ASSERT_EQ(loaded.diagnostics.error_count(), 1u) << regdb::testing_support::Rendered(loaded);
  const regdb::Diagnostic& error = loaded.diagnostics.all().front();
  EXPECT_THAT(error.message, HasSubstr("gated ranges of behaviours 'forcewake' and 'again' overlap at 0x2600"));
  size_t at = yaml.find("- kind: forcewake\n    name: again");
  auto newlines = std::count(yaml.begin(), yaml.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(error.loc.line, 1u + static_cast<uint32_t>(newlines));
}

}  // namespace
}  // namespace regemu::emulator
