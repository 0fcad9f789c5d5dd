// The external time-travel controller (uml/time_travel_controller.hpp)
// against a client that speaks as arch/um/kernel/time.c does: every
// message ACKed with its seq, GET answered with the shared clock, REQUEST
// replacing the previous one, WAIT answered by RUN only when the host says
// so, UPDATE moving the clock forward but never back, garbage bounded.
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/uml/time_travel_controller.hpp"

namespace regemu::uml {
namespace {

struct Message {
  uint32_t op;
  uint32_t seq;
  uint64_t time;
};
enum : uint32_t { kAck = 0, kStart = 1, kRequest = 2, kWait = 3, kGet = 4, kUpdate = 5, kRun = 6, kGetTod = 8 };

class TimeTravelControllerTest : public ::testing::Test {
 protected:
  TimeTravelControllerTest()
      : path_((std::filesystem::temp_directory_path() / ("regemu_tt_" + std::to_string(::getpid()))).string()),
        controller_(path_) {
    client_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.c_str(), sizeof address.sun_path - 1);
    EXPECT_EQ(::connect(client_, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    EXPECT_TRUE(controller_.HandleReadable()) << "accepts the kernel's connection";
    EXPECT_TRUE(controller_.connected());
  }
  ~TimeTravelControllerTest() override { ::close(client_); }

  // Sends `op` and lets the controller handle it; returns its ACK.
  Message Ask(uint32_t op, uint64_t time) {
    Message m{op, ++seq_, time};
    EXPECT_EQ(::send(client_, &m, sizeof m, 0), static_cast<ssize_t>(sizeof m));
    EXPECT_TRUE(controller_.HandleReadable());
    Message ack{};
    EXPECT_EQ(::recv(client_, &ack, sizeof ack, 0), static_cast<ssize_t>(sizeof ack));
    EXPECT_EQ(ack.op, kAck);
    EXPECT_EQ(ack.seq, seq_) << "time.c panics on an ACK with another seq";
    return ack;
  }

  std::string path_;
  TimeTravelController controller_;
  int client_ = -1;
  uint32_t seq_ = 0;
};

TEST_F(TimeTravelControllerTest, EveryMessageIsAckedWithItsSeqAndGetCarriesTheSharedClock) {
  Ask(kStart, 7);
  EXPECT_EQ(Ask(kGet, 0).time, 0u);
  controller_.SetNow(1500);
  EXPECT_EQ(Ask(kGet, 0).time, 1500u);
}

TEST_F(TimeTravelControllerTest, TheLastRequestStandsAndWaitIsAnsweredByRunOnlyWhenTheHostLetsItRun) {
  Ask(kRequest, 10'000'000);
  Ask(kRequest, 256);  // replaces the first
  EXPECT_EQ(controller_.requested_ns(), 256u);
  Ask(kWait, 0);
  EXPECT_TRUE(controller_.waiting());
  char byte;
  EXPECT_EQ(::recv(client_, &byte, 1, MSG_DONTWAIT), -1) << "no RUN until the host says so";
  controller_.SetNow(256);
  ASSERT_TRUE(controller_.Run());
  Message run{};
  ASSERT_EQ(::recv(client_, &run, sizeof run, 0), static_cast<ssize_t>(sizeof run));
  EXPECT_EQ(run.op, kRun);
  EXPECT_EQ(run.time, 256u);
  EXPECT_FALSE(controller_.waiting());
}

TEST_F(TimeTravelControllerTest, UpdateMovesTheClockForwardButNeverBack) {
  Ask(kUpdate, 5000);
  EXPECT_EQ(controller_.now_ns(), 5000u);
  Ask(kUpdate, 4000);
  EXPECT_EQ(controller_.now_ns(), 5000u);
  controller_.SetNow(100);
  EXPECT_EQ(controller_.now_ns(), 5000u);
}

TEST_F(TimeTravelControllerTest, TheTimeOfDayIsFixedSoRunsRepeat) {
  uint64_t first = Ask(kGetTod, 0).time;
  EXPECT_EQ(Ask(kGetTod, 0).time, first);
  EXPECT_GT(first, 1'700'000'000ull * 1'000'000'000ull);
}

TEST_F(TimeTravelControllerTest, AnUnknownOpIsAckedAndReported) {
  Ask(42, 0);
  EXPECT_THAT(controller_.error(), ::testing::HasSubstr("unknown op 42"));
}

TEST_F(TimeTravelControllerTest, AShortMessageOrAClosedLinkEndsIt) {
  uint32_t half = kGet;
  ASSERT_EQ(::send(client_, &half, sizeof half, 0), static_cast<ssize_t>(sizeof half));
  ::shutdown(client_, SHUT_WR);
  EXPECT_FALSE(controller_.HandleReadable());
  EXPECT_THAT(controller_.error(), ::testing::HasSubstr("short message"));
}

TEST_F(TimeTravelControllerTest, TheKernelClosingTheLinkIsTheEndNotAnError) {
  ::shutdown(client_, SHUT_WR);
  EXPECT_FALSE(controller_.HandleReadable());
  EXPECT_EQ(controller_.error(), "");
}

}  // namespace
}  // namespace regemu::uml
