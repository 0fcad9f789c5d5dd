// `kind: fifo` at run time: a transmitter draining one character per
// character time (exact at 115200 baud: 86,805.55 ns), a receiver fed by a
// test's input stream, overrun, loopback into another FIFO, clearing, and
// the fields that follow the level. The device is a 16550-shaped sketch,
// not the 16550 database.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/fakes/matchers.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kSerial = R"y(device: serial
spaces:
  - {name: io, kind: mmio, size: 8, widths: [8]}
registers:
  - {name: RBR, space: io, offset: 0, width: 8, access: ro, decode: read}
  - {name: THR, space: io, offset: 0, width: 8, access: wo, decode: write}
  - {name: FCR, space: io, offset: 2, width: 8, access: wo, fields: [{name: RFR, bits: 1}, {name: XFR, bits: 2}]}
  - {name: DIV, space: io, offset: 3, width: 8, reset: 1}
  - {name: MCR, space: io, offset: 4, width: 8, fields: [{name: LOOP, bits: 4}]}
  - name: LSR
    space: io
    offset: 5
    width: 8
    fields:
      - {name: DR, bits: 0, access: ro}
      - {name: OE, bits: 1, access: rc}
      - {name: THRE, bits: 5, access: ro}
      - {name: TEMT, bits: 6, access: ro}
  - {name: RFL, space: io, offset: 6, width: 8, access: ro}
behaviours:
  - name: tx
    kind: fifo
    depth: 4
    push: THR
    overrun_rule: THR written while the transmit FIFO is full
    drain: {clock: 1.8432MHz, ticks: "16 * DIV * 10"}
    to:
      - {fifo: rx, when: "MCR.LOOP == 1"}
      - {stream: serial_out}
    flags:
      - {field: LSR.THRE, when: "level == 0"}
      - {field: LSR.TEMT, when: "level == 0 && busy == 0"}
    clear: [{write: FCR, when: "(value & 4) != 0"}]
  - name: rx
    kind: fifo
    depth: 2
    input: serial_in
    pop: RBR
    level: RFL
    overrun: LSR.OE
    flags: [{field: LSR.DR, when: "level != 0"}]
    clear: [{write: FCR, when: "(value & 2) != 0"}]
)y";

class FifoTest : public ::testing::Test {
 protected:
  FifoTest() {
    DeviceOptions options;
    options.policy = ViolationPolicy::Lenient();
    device_ = MakeDevice(kSerial, options);
  }
  RegisterId Id(const char* name) const { return RegisterNamed(device_->model(), name); }
  uint64_t Peek(const char* name) const { return device_->PeekRegister(Id(name)); }
  std::string Inject(std::string_view verb, std::vector<std::string> args) { return device_->Inject(verb, args); }
  void Send(std::string_view text) {
    for (char c : text) device_->WriteRegister(Id("THR"), static_cast<unsigned char>(c));
  }
  std::vector<uint64_t> Times() const {
    std::vector<uint64_t> times;
    for (const StreamEntry& entry : device_->output("serial_out")) times.push_back(entry.time_ns);
    return times;
  }

  std::unique_ptr<Device> device_;
};

// 115200 8N1: 10 bits of 16 clocks of 1.8432 MHz each, 86,805.55 ns a
// character; character k leaves at ceil(k * 86,805.55) ns, with no drift.
TEST_F(FifoTest, TransmitterSendsOneCharacterPerCharacterTimeExactly) {
  EXPECT_EQ(Peek("LSR"), 0x60u);  // THRE and TEMT: nothing to send
  Send("hi!");
  EXPECT_EQ(Peek("LSR") & 0x60, 0u);
  device_->Advance(1'000'000);
  std::vector<StreamEntry> out = device_->output("serial_out");
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].value, uint64_t{'h'});
  EXPECT_EQ(out[2].value, uint64_t{'!'});
  EXPECT_THAT(Times(), ElementsAre(86'806u, 173'612u, 260'417u));
  EXPECT_THAT(*device_, fakes::OutputIs("serial_out", "hi!"));
  EXPECT_THAT(*device_, ::testing::Not(fakes::OutputIs("serial_out", "hi")));
  EXPECT_THAT(::testing::DescribeMatcher<const Device&>(fakes::OutputIs("serial_out", "hi")),
              HasSubstr("serial_out carried \"hi\" (2 entries)"));
  EXPECT_EQ(Peek("LSR"), 0x60u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(FifoTest, AThousandCharactersBackToBackKeepTheExactRate) {
  // A driver keeping the FIFO topped up: a write whenever THRE says it emptied.
  size_t written = 0;
  while (device_->output("serial_out").size() < 1000) {
    while (written < 1000 && (written < 4 || (Peek("LSR") & 0x20) != 0)) {
      device_->WriteRegister(Id("THR"), 0x55);
      ++written;
    }
    device_->Advance(*device_->next_event_ns() - device_->now_ns());
  }
  EXPECT_EQ(device_->output("serial_out").back().time_ns, 86'805'556u);  // ceil(1000 * 86,805.555...)
}

TEST_F(FifoTest, AWriteIntoAFullTransmitFifoIsTheRuleAndTheCharacterIsLost) {
  Send("abcdef");  // one shifting, four held, the sixth finds the FIFO full
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_->violations().at(0).rule, HasSubstr("THR written while the transmit FIFO is full"));
  device_->Advance(10'000'000);
  EXPECT_EQ(device_->output("serial_out").size(), 5u);
}

TEST_F(FifoTest, ReceivedBytesPopThroughRbrAndTheLevelFollows) {
  EXPECT_EQ(Inject("serial_in", {"\"ok\""}), "");
  EXPECT_EQ(Peek("RFL"), 2u);
  EXPECT_EQ(Peek("LSR") & 1, 1u);
  EXPECT_EQ(device_->ReadRegister(Id("RBR")), uint64_t{'o'});
  EXPECT_EQ(device_->ReadRegister(Id("RBR")), uint64_t{'k'});
  EXPECT_EQ(Peek("RFL"), 0u);
  EXPECT_EQ(Peek("LSR") & 1, 0u);
}

TEST_F(FifoTest, AByteArrivingAtAFullReceiverIsLostAndSetsOverrunWhichALsrReadClears) {
  EXPECT_EQ(Inject("serial_in", {"1", "2", "3"}), "");
  EXPECT_EQ(Peek("RFL"), 2u);
  EXPECT_EQ(device_->ReadRegister(Id("LSR")) & 2, 2u);  // OE, read-clear
  EXPECT_EQ(Peek("LSR") & 2, 0u);
  EXPECT_EQ(device_->ReadRegister(Id("RBR")), 1u);
  EXPECT_EQ(device_->ReadRegister(Id("RBR")), 2u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());  // the line's loss, not the driver's fault
}

// `overrun_replaces`: while it holds, the newest entry gives way to the
// arriving one (a 16450's RBR, PC16550D §8.4 bit 1); OE is set either way.
TEST(FifoOverrunReplacesTest, WhileItHoldsTheNewestEntryGivesWayAndOverrunIsSet) {
  std::string yaml = kSerial;
  yaml.replace(yaml.find("    overrun: LSR.OE\n"), std::string("    overrun: LSR.OE\n").size(),
               "    overrun: LSR.OE\n    overrun_replaces: \"MCR.LOOP == 0\"\n");
  auto device = MakeDevice(yaml);
  std::vector<std::string> bytes{"1", "2", "3"};
  ASSERT_EQ(device->Inject("serial_in", bytes), "");
  const Model& model = device->model();
  EXPECT_EQ(device->PeekRegister(RegisterNamed(model, "RFL")), 2u) << "the level stays";
  EXPECT_EQ(device->ReadRegister(RegisterNamed(model, "LSR")) & 2, 2u);
  EXPECT_EQ(device->ReadRegister(RegisterNamed(model, "RBR")), 1u);
  EXPECT_EQ(device->ReadRegister(RegisterNamed(model, "RBR")), 3u) << "3 replaced 2, the newest";
  // With the expression false the arriving entry is lost, as without the key.
  device->WriteRegister(RegisterNamed(model, "MCR"), 0x10);
  bytes = {"4", "5", "6"};
  ASSERT_EQ(device->Inject("serial_in", bytes), "");
  EXPECT_EQ(device->ReadRegister(RegisterNamed(model, "RBR")), 4u);
  EXPECT_EQ(device->ReadRegister(RegisterNamed(model, "RBR")), 5u);
}

TEST_F(FifoTest, InputArrivesAtTheTestsPace) {
  EXPECT_EQ(Inject("serial_in", {"0x41", "0x42", "every", "10us"}), "");
  EXPECT_EQ(Peek("RFL"), 0u);
  device_->Advance(10'000);
  EXPECT_EQ(Peek("RFL"), 1u);
  device_->Advance(10'000);
  EXPECT_EQ(Peek("RFL"), 2u);
  EXPECT_NE(Inject("serial_in", {"0x141"}), "");  // past 8 bits
}

TEST_F(FifoTest, LoopbackRoutesTheTransmitterIntoTheReceiver) {
  device_->WriteRegister(Id("MCR"), 0x10);
  Send("Z");
  device_->Advance(100'000);
  EXPECT_THAT(device_->output("serial_out"), IsEmpty());
  EXPECT_EQ(device_->ReadRegister(Id("RBR")), uint64_t{'Z'});
}

TEST_F(FifoTest, FcrClearsEachFifo) {
  Inject("serial_in", {"1", "2"});
  device_->WriteRegister(Id("FCR"), 0x02);
  EXPECT_EQ(Peek("RFL"), 0u);
  EXPECT_EQ(Peek("LSR") & 1, 0u);
}

TEST_F(FifoTest, SnapshotsKeepTheEntriesAndTheDrainInFlight) {
  Send("xy");
  DeviceSnapshot snapshot = device_->Snapshot();
  device_->Advance(1'000'000);
  ASSERT_EQ(device_->output("serial_out").size(), 2u);
  device_->Restore(snapshot);
  device_->Advance(1'000'000);
  EXPECT_EQ(device_->output("serial_out").size(), 4u);  // the record of what left is kept; x and y went again
}

TEST_F(FifoTest, ScriptsCheckWhatCameOut) {
  auto run = [&](const std::string& text) {
    std::unique_ptr<Device> device = MakeDevice(kSerial);
    Script script = ParseScript(text, "out.script", device->model());
    EXPECT_TRUE(script.ok()) << script.FormatErrors();
    return RunScript(script, *device);
  };
  RunResult good = run("write8 THR 0x68\nwrite8 THR 0x69\nstep 1ms\nexpect-output serial_out \"hi\"\n");
  EXPECT_TRUE(good.passed());
  RunResult bad = run("write8 THR 0x61\nstep 1ms\nexpect-output serial_out 0x62\n");
  ASSERT_EQ(bad.failures.size(), 1u);
  EXPECT_THAT(bad.failures[0].message, HasSubstr("entry 1 differs: came out 'a' at"));
  RunResult early = run("write8 THR 0x61\nexpect-output serial_out 0x61\n");
  ASSERT_EQ(early.failures.size(), 1u);
  EXPECT_THAT(early.failures[0].message, HasSubstr("only 0 came out: nothing (a transmitter takes time: step first?)"));
  Script unknown = ParseScript("expect-output serial_ot 1\n", "bad.script", device_->model());
  EXPECT_THAT(unknown.FormatErrors(), HasSubstr("no output stream 'serial_ot' (did you mean 'serial_out'?)"));
}

}  // namespace
}  // namespace regemu::emulator
