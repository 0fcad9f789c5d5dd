// yaml/uart16550 as a driver meets it (issue "three more real devices"):
// a string at 115200 8N1 leaves one character every 86.8 us of virtual
// time; a character arriving at a full receive FIFO is lost and sets
// LSR.OE, which the next LSR read clears; Linux's loopback probe reads
// MSR[7:4] = DCD | CTS; INTR reaches the interrupt request only with OUT2.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/fakes/matchers.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::RegisterNamed;

class Uart16550Test : public ::testing::Test {
 protected:
  Uart16550Test()
      : device_(testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/uart16550")) {}

  void Write(const char* reg, uint64_t value) { device_.WriteRegister(RegisterNamed(device_.model(), reg), value); }
  uint64_t Read(const char* reg) { return device_.ReadRegister(RegisterNamed(device_.model(), reg)); }
  // serial8250_do_set_termios for 115200 8N1 with FIFOs (trigger 8), OUT2 on.
  void Set115200() {
    Write("LCR", 0x83);
    Write("DLL", 0x01);
    Write("DLM", 0x00);
    Write("LCR", 0x03);
    Write("FCR", 0x01);
    Write("FCR", 0x81);
    Write("MCR", 0x0B);
  }

  Device device_;
};

TEST_F(Uart16550Test, AStringAt115200LeavesOneCharacterEvery86Point8Microseconds) {
  Set115200();
  const std::string text = "Hello, 16550!";
  for (char c : text) Write("THR", static_cast<unsigned char>(c));
  device_.Advance(2'000'000);
  EXPECT_THAT(device_, fakes::OutputIs("sout", text));
  std::vector<StreamEntry> out = device_.output("sout");
  for (size_t k = 0; k < out.size(); ++k) {
    // Character k+1 ends at ceil((k+1) x 160 / 1.8432 MHz): 10 bits of 16
    // clock periods, 86,805.55... ns each, without drift.
    uint64_t ticks = 160 * (k + 1);
    uint64_t exact_ns = (ticks * 1'000'000'000 + 1'843'199) / 1'843'200;
    EXPECT_EQ(out[k].time_ns, exact_ns) << "character " << k;
  }
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

TEST_F(Uart16550Test, ACharacterArrivingAtAFullReceiverIsLostAndOeClearsOnTheNextLsrRead) {
  Set115200();
  std::vector<std::string> seventeen{"\"ABCDEFGHIJKLMNOPQ\""};
  EXPECT_EQ(device_.Inject("sin", seventeen), "");
  device_.Advance(17 * 86'806);
  EXPECT_EQ(Read("LSR") & 0x03, 0x03u);  // DR and OE
  EXPECT_EQ(Read("LSR") & 0x03, 0x01u);  // OE cleared by the read
  std::string received;
  while ((Read("LSR") & 1) != 0) received += static_cast<char>(Read("RBR"));
  EXPECT_EQ(received, "ABCDEFGHIJKLMNOP");
  EXPECT_THAT(Kinds(device_), IsEmpty());
}

TEST_F(Uart16550Test, LinuxLoopbackProbeSeesDcdAndCts) {
  Write("MCR", 0x1A);  // LOOP | OUT2 | RTS
  EXPECT_EQ(Read("MSR") & 0xF0, 0x90u);
  Write("MCR", 0x00);
}

TEST_F(Uart16550Test, TheInterruptReachesTheRequestOnlyWithOut2) {
  Set115200();
  Write("MCR", 0x03);  // DTR | RTS, no OUT2
  Write("IER", 0x02);  // THRE pending at once
  EXPECT_EQ(Read("IIR") & 0x0F, 0x02u);
  Write("IER", 0x00);
  Write("IER", 0x02);
  EXPECT_FALSE(device_.interrupt_asserted());
  Write("MCR", 0x0B);
  EXPECT_TRUE(device_.interrupt_asserted());
  Write("IER", 0x00);
  EXPECT_FALSE(device_.interrupt_asserted());
}

}  // namespace
}  // namespace regemu::emulator
