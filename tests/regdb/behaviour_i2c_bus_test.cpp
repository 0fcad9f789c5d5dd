// The check of `kind: i2c-bus` (yaml/README.md): a valid section becomes its
// config; each mistake is a located error; the fifo keys it brings (a
// `bus:` route, a clear on an event, a FIFO fed only by a bus) are checked.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/fifo.hpp"
#include "regemu/regdb/behaviour_configs/i2c_bus.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

constexpr const char* kDevice = R"y(device: controller
spaces:
  - {name: regs, kind: mmio, size: 0x20, widths: [32]}
registers:
  - {name: CMD, space: regs, offset: 0x0}
  - {name: TAR, space: regs, offset: 0x4, fields: [{name: ADDR, bits: "6:0"}]}
  - {name: DATA, space: regs, offset: 0x8}
  - {name: STATUS, space: regs, offset: 0xC, fields: [{name: BUSY, bits: 0, access: hw}]}
behaviours:
  - name: commands
    kind: fifo
    depth: 8
    width: 16
    push: CMD
    drain: 22500ns
    to: [{bus: bus}]
    clear: [{event: bus.nack}]
  - name: received
    kind: fifo
    depth: 8
    pop: DATA
)y";

LoadedDatabase Check(const std::string& behaviour) { return CheckYaml(std::string(kDevice) + behaviour); }

constexpr const char* kBus = R"y(  - name: bus
    kind: i2c-bus
    commands: {data: "7:0", read: 8, stop: 9, restart: 10}
    address: "TAR.ADDR"
    receive: received
    active: [STATUS.BUSY]
    targets:
      - {name: eeprom, address: 0x50, size: 256, page: 8, contents: [1, 2, 3]}
      - {name: big, address: 0x51, size: 4096, pointer_bytes: 2}
)y";

TEST(I2cBusCheckTest, ValidSectionBuildsItsConfig) {
  LoadedDatabase loaded = Check(kBus);
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const auto* config = ConfigAs<I2cBusConfig>(loaded.database.behaviours.back());
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->data.mask, 0xFFu);
  EXPECT_EQ(config->read.mask, 0x100u);
  EXPECT_EQ(config->stop.mask, 0x200u);
  EXPECT_EQ(config->restart.mask, 0x400u);
  EXPECT_EQ(config->receive, "received");
  ASSERT_EQ(config->targets.size(), 2u);
  EXPECT_EQ(config->targets[0].address, 0x50u);
  EXPECT_EQ(config->targets[0].page, 8u);
  EXPECT_EQ(config->targets[0].contents.size(), 3u);
  EXPECT_EQ(config->targets[1].pointer_bytes, 2u);
  const auto* commands = ConfigAs<FifoConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(commands, nullptr);
  EXPECT_EQ(commands->routes.at(0).bus, "bus");
  EXPECT_EQ(commands->clear.at(0).event, "bus.nack");
}

TEST(I2cBusCheckTest, AFifoFedOnlyByTheBusHasAWayIn) {
  EXPECT_THAT(Rendered(Check(kBus)), Not(HasSubstr("has no way in")));
  // Without the bus naming it, `received` has none.
  EXPECT_THAT(Rendered(CheckYaml(std::string(kDevice))), HasSubstr("fifo behaviour 'received' has no way in"));
}

TEST(I2cBusCheckTest, MistakesAreLocated) {
  LoadedDatabase unknown = Check(R"y(  - name: bus
    kind: i2c-bus
    commands: {data: "7:0", read: 8, stop: 9}
    address: TAR.ADDR
    receive: recieved
)y");
  EXPECT_THAT(unknown.diagnostics.all(),
              Contains(ErrorAt(26, 14, HasSubstr("receives into unknown fifo 'recieved' (did you mean 'received'?)"))))
      << Rendered(unknown);
  auto bus = [](const std::string& commands, const std::string& rest) {
    return "  - name: bus\n    kind: i2c-bus\n    commands: " + commands +
           "\n    address: TAR.ADDR\n    receive: received\n" + rest;
  };
  const std::string good = R"({data: "7:0", read: 8, stop: 9})";
  EXPECT_THAT(Rendered(Check(bus(R"({data: "6:0", read: 8, stop: 9})", ""))), HasSubstr("must be 8 bits wide"));
  EXPECT_THAT(Rendered(Check(bus(R"({data: "7:0", read: 7, stop: 9})", ""))), HasSubstr("overlaps another part"));
  EXPECT_THAT(Rendered(Check(bus(R"({data: "7:0", read: "9:8", stop: 10})", ""))), HasSubstr("one bit each"));
  EXPECT_THAT(Rendered(Check(bus(R"({data: "7:0", stop: 9})", ""))), HasSubstr("read"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x78, size: 16}]\n"))),
              HasSubstr("address"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x50, size: 16}, {name: u, address: 0x50, "
                                       "size: 16}]\n"))),
              HasSubstr("one target per address"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x50, size: 1024}]\n"))),
              HasSubstr("say how many `pointer_bytes`"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x50, size: 24, page: 16}]\n"))),
              HasSubstr("does not divide"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x50, size: 2, contents: [1, 2, 3]}]\n"))),
              HasSubstr("3 bytes of `contents` but holds 2"));
  EXPECT_THAT(Rendered(Check(bus(good, "    targets: [{name: t, address: 0x50, size: 2, contents: [256]}]\n"))),
              HasSubstr("contents"));
  EXPECT_THAT(Rendered(Check(bus(good, "    active: [STATUS.BUZY]\n"))), HasSubstr("BUZY"));
  LoadedDatabase time_address = Check("  - {name: bus, kind: i2c-bus, commands: " + good +
                                      ", address: 2us, receive: received}\n");
  EXPECT_THAT(Rendered(time_address), HasSubstr("expected a number"));
}

TEST(I2cBusCheckTest, FifoRoutesToABusAndClearsOnAnEventAreChecked) {
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: CMD, drain: 1us, to: [{bus: nobus}]}\n")),
              HasSubstr("drains into unknown bus 'nobus'"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: CMD, drain: 1us, to: [{bus: b, stream: s}]}\n")),
              HasSubstr("goes to one `stream:`, one `fifo:` or one `bus:`"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: CMD, pop: DATA, clear: [{event: x, write: CMD}]}\n")),
              HasSubstr("is a `write:` (with an optional `when:`) or an `event:`"));
}

}  // namespace
}  // namespace regemu::regdb
