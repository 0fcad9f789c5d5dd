// The check of `kind: fifo` (yaml/README.md): a valid section becomes its
// config; each mistake is a located error.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/fifo.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

constexpr const char* kDevice = R"y(device: serial
spaces:
  - {name: io, kind: mmio, size: 8, widths: [8]}
registers:
  - {name: RBR, space: io, offset: 0, width: 8, access: ro, decode: read}
  - {name: THR, space: io, offset: 0, width: 8, access: wo, decode: write}
  - {name: DIV, space: io, offset: 1, width: 8}
  - {name: LSR, space: io, offset: 5, width: 8, fields: [{name: DR, bits: 0}, {name: OE, bits: 1, access: rc}]}
behaviours:
  - name: rx
    kind: fifo
    depth: 16
    input: serial_in
    pop: RBR
)y";

LoadedDatabase Check(const std::string& behaviour) { return CheckYaml(std::string(kDevice) + behaviour); }

TEST(FifoCheckTest, ValidSectionBuildsItsConfig) {
  LoadedDatabase loaded = Check(R"y(  - name: tx
    kind: fifo
    depth: "DIV == 0 ? 1 : 16"
    push: THR
    drain: {clock: 1.8432MHz, ticks: "16 * DIV * 10"}
    to: [{fifo: rx, when: "LSR.DR == 1"}, {stream: serial_out}]
    flags: [{field: LSR.DR, when: "level == 0 && busy == 0"}]
    overrun: LSR.OE
    clear: [{write: DIV, when: "value == 0"}]
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const auto* config = ConfigAs<FifoConfig>(loaded.database.behaviours.back());
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->routes.size(), 2u);
  EXPECT_EQ(config->routes[0].fifo, "rx");
  EXPECT_EQ(config->routes[1].stream, "serial_out");
  EXPECT_EQ(config->drain->clock.num, 144u);  // 1,843,200 Hz = 144/78,125 ticks per ns
  EXPECT_EQ(config->drain->clock.den, 78125u);
  EXPECT_EQ(config->flags.size(), 1u);
  EXPECT_EQ(config->watched.size(), 1u);  // DIV, which the depth reads (the flag reads only level and busy)
}

TEST(FifoCheckTest, AFifoNeedsAWayInAndAWayOut) {
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, pop: RBR}\n")), HasSubstr("has no way in"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR}\n")), HasSubstr("has no way out"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR, drain: 1us}\n")),
              HasSubstr("drains entries but has no `to:` saying where they go"));
}

TEST(FifoCheckTest, MistakesAreLocated) {
  LoadedDatabase unknown = Check("  - {name: a, kind: fifo, depth: 4, push: THR, drain: 1us, to: [{fifo: rz}]}\n");
  EXPECT_THAT(unknown.diagnostics.all(),
              Contains(ErrorAt(15, 72, HasSubstr("drains into unknown fifo 'rz' (did you mean 'rx'?)"))))
      << Rendered(unknown);
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR, drain: 3, to: [{stream: s}]}\n")),
              HasSubstr("is a number, expected a time"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 0, push: THR, pop: RBR}\n")),
              HasSubstr("a FIFO holds 1 to 65536 entries"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR, pop: RBR, flags: [{field: LSR.DX, "
                             "when: level}]}\n")),
              HasSubstr("LSR.DX"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: lvl, push: THR, pop: RBR}\n")),
              HasSubstr("unknown name 'lvl'"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR, drain: {clock: 3furlongs, ticks: 1}, "
                             "to: [{stream: s}]}\n")),
              HasSubstr("`clock` of `drain` of fifo behaviour 'a'"));
  EXPECT_THAT(Rendered(Check("  - {name: a, kind: fifo, depth: 4, push: THR, drain: 1us, to: [{stream: s, fifo: rx}]}\n")),
              HasSubstr("goes to one `stream:`, one `fifo:` or one `bus:`"));
}

}  // namespace
}  // namespace regemu::regdb
