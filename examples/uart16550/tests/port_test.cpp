// The example 8250 driver against yaml/uart16550 in a strict device: the
// probe finds a 16550A, startup and termios pass every datasheet rule, a
// string goes out by THRE interrupts at the line's rate and comes back in
// loopback, received characters with errors are counted as Linux counts
// them; and each bug is what regemu reports (or, where no rule can see it,
// what the driver then sees).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/uart16550/port.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::uart16550 {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class PortTest : public fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(fakes::ShippedDatabase("uart16550")); }

  Port MakePort(Bugs bugs = {}) {
    return Port(bus("io"), [this](uint64_t ns) { device().Advance(ns); }, bugs);
  }
  // The interrupt line as the kernel sees it: the handler runs while it is
  // asserted; otherwise time passes to the device's next event.
  void RunUntil(Port& port, const std::function<bool()>& done, uint64_t budget_ns = 100'000'000) {
    uint64_t end = device().now_ns() + budget_ns;
    while (!done() && device().now_ns() < end) {
      if (device().interrupt_asserted()) {
        port.HandleIrq();
      } else if (auto next = device().next_event_ns()) {
        device().Advance(*next - device().now_ns());
      } else {
        break;
      }
    }
  }
};

TEST_F(PortTest, ProbeFindsA16550AAndStartupPassesEveryRule) {
  Port port = MakePort();
  EXPECT_EQ(port.Autoconfig(), PortType::k16550A);
  EXPECT_TRUE(port.Startup());
  port.SetTermios(115200);
  EXPECT_THAT(device(), fakes::FieldIs("IIR", 0xC1));
}

TEST_F(PortTest, AStringGoesOutByThreInterruptsAtTheLineRate) {
  Port port = MakePort();
  port.Autoconfig();
  port.Startup();
  port.SetTermios(115200);
  std::string text(40, '.');
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<char>('A' + i % 26);
  port.Write(text);
  RunUntil(port, [&] { return device().output("sout").size() == text.size(); });
  EXPECT_THAT(device(), fakes::OutputIs("sout", text));
  std::vector<emulator::StreamEntry> out = device().output("sout");
  // Back to back within each burst of 16: 86,805 or 86,806 ns apart.
  EXPECT_NEAR(static_cast<double>(out[15].time_ns - out[0].time_ns), 15 * 86'805.6, 1.0);
  EXPECT_TRUE(port.tx_done());
  EXPECT_FALSE(device().interrupt_asserted());  // THRI cleared once the queue emptied
}

TEST_F(PortTest, ReceivedCharactersAndLineErrorsAreCountedAsLinuxCountsThem) {
  Port port = MakePort();
  port.Startup();
  port.SetTermios(115200);
  std::vector<std::string> text{"\"hi!\""};
  ASSERT_EQ(device().Inject("sin", text), "");
  RunUntil(port, [&] { return port.received().text.size() == 3; });
  EXPECT_EQ(port.received().text, "hi!");
  std::vector<std::string> none;
  ASSERT_EQ(device().Inject("parity_error", none), "");
  std::vector<std::string> bad{"0x3F"};
  ASSERT_EQ(device().Inject("sin", bad), "");
  RunUntil(port, [&] { return port.received().text.size() == 4; });
  EXPECT_EQ(port.received().parity_errors, 1u);
}

TEST_F(PortTest, BugNoDivisorIsTheDivisorRule) {
  Port port = MakePort({Bug::kNoDivisor});
  port.Startup();
  port.SetTermios(115200);
  port.Write("x");
  RunUntil(port, [&] { return port.tx_done(); });
  EXPECT_THAT(TakeViolations(), ElementsAre(fakes::ViolationIs("protocol", "THR", "divisor latch of 0")));
}

TEST_F(PortTest, BugOverfillFifoLosesACharacterAndIsTheFifoRule) {
  Port port = MakePort({Bug::kOverfillFifo});
  port.Startup();
  port.SetTermios(115200);
  port.Write(std::string(40, 'z'));
  RunUntil(port, [&] { return port.tx_done(); });
  device().Advance(10'000'000);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_FALSE(violations.empty());
  EXPECT_THAT(violations[0].rule, HasSubstr("THR written while the transmit holding register / FIFO is full"));
  EXPECT_LT(device().output("sout").size(), 40u);
}

TEST_F(PortTest, BugDlabLeftSetSendsNothingAndReprogramsTheDivisor) {
  Port port = MakePort({Bug::kDlabLeftSet});
  port.Startup();
  port.SetTermios(115200);
  port.Write("hello");
  RunUntil(port, [&] { return port.tx_done(); }, 5'000'000);
  device().Advance(10'000'000);
  // IER writes reach DLM while DLAB is set: THRI never comes on, nothing is
  // sent, and the divisor is now 0x0701 (RDI|THRI|RLSI in its high byte).
  EXPECT_TRUE(device().output("sout").empty());
  EXPECT_FALSE(port.tx_done());
  EXPECT_THAT(device(), fakes::FieldIs("DLM", 0x07));
  EXPECT_THAT(device(), fakes::FieldIs("IER.THRI", 0));
}

}  // namespace
}  // namespace regemu::uart16550
