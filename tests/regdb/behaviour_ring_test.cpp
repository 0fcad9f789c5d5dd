// The `ring` configuration check (yaml/README.md, "kind: ring"): every
// mistake is a located error (file:line:col), found at load. Each test
// changes ONE line of a clean NVMe admin queue pair and states the error
// that line earns, at the line and column of the offending text.
#include <algorithm>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/ring.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;
using testing_support::WarningAt;

// NVMe's admin queue pair (NVMe 1.4 §3.1.8-3.1.10,
// §3.1.25-26, §4 [M]), registers in BAR0, the
// device's indices in a state space.
constexpr std::string_view kClean = R"yaml(device: nvme_admin
spaces:
  - {name: bar0, kind: mmio, size: 0x2000}
  - {name: host, kind: memory, size: 0x100000}
  - {name: queues, kind: state, size: 0x100}
registers:
  - {name: CC, space: bar0, offset: 0x14, fields: [{name: EN, bits: 0}]}
  - {name: CSTS, space: bar0, offset: 0x1C, fields: [{name: RDY, bits: 0}]}
  - {name: AQA, space: bar0, offset: 0x24, fields: [{name: ACQS, bits: "27:16"}, {name: ASQS, bits: "11:0"}]}
  - {name: ASQ, space: bar0, offset: 0x28, width: 64}
  - {name: ACQ, space: bar0, offset: 0x30, width: 64}
  - {name: SQ0TDBL, space: bar0, offset: 0x1000, fields: [{name: SQT, bits: "15:0"}]}
  - {name: CQ0HDBL, space: bar0, offset: 0x1004, fields: [{name: CQH, bits: "15:0"}]}
  - {name: ADMIN_SQ_HEAD, space: queues, offset: 0x0, width: 16}
  - {name: ADMIN_CQ_TAIL, space: queues, offset: 0x2, width: 16}
  - {name: ADMIN_CQ_PHASE, space: queues, offset: 0x4, width: 8, fields: [{name: P, bits: 0}]}
  - {name: ADMIN_IS, space: queues, offset: 0x8, fields: [{name: V0, bits: 0}]}
behaviours:
  - name: admin
    kind: ring
    memory: host
    enabled: "CC.EN == 1 && CSTS.RDY == 1"
    reset_when: "CC.EN == 0"
    submission:
      base: "ASQ & ~0xFFF"
      size: "AQA.ASQS + 1"
      entry_size: 64
      tail_doorbell: SQ0TDBL.SQT
      head: ADMIN_SQ_HEAD
    completion:
      base: "ACQ & ~0xFFF"
      size: "AQA.ACQS + 1"
      entry_size: 16
      head_doorbell: CQ0HDBL.CQH
      tail: ADMIN_CQ_TAIL
      phase: ADMIN_CQ_PHASE.P
      interrupt: ADMIN_IS.V0
      entry:
        - {offset: 0, width: 32, value: "result"}
        - {offset: 8, width: 16, value: "sq_head"}
        - {offset: 10, width: 16, value: "sq_id"}
        - {offset: 12, width: 16, value: "entry.CID"}
        - {offset: 14, width: 16, value: "phase | (status << 1)"}
    sq_id: 0
    fields:
      OPC: {offset: 0, width: 8}
      CID: {offset: 2, width: 16}
      NSID: {offset: 4, width: 32}
      PRP1: {offset: 24, width: 64}
      CDW10: {offset: 40, width: 32}
      CNS: {offset: 40, width: 32, bits: "7:0"}
      CDW11: {offset: 44, width: 32}
    commands:
      - name: identify
        when: "entry.OPC == 0x06"
        writes:
          - {address: "entry.PRP1", width: 16, value: 0x1B36}
      - {name: set_features, when: "entry.OPC == 0x09", status: 0, result: "entry.CDW11"}
    default_status: 0x01
    latency: 0ns
)yaml";

// kClean with `from` (which must occur once) replaced by `to`.
std::string With(std::string_view from, std::string_view to) {
  std::string yaml(kClean);
  size_t at = yaml.find(from);
  if (at == std::string::npos || yaml.find(from, at + 1) != std::string::npos) {
    ADD_FAILURE() << "'" << from << "' does not occur exactly once";
    return yaml;
  }
  return yaml.replace(at, from.size(), to);
}

// The 1-based line and column of the first `needle` in `yaml`.
std::pair<int, int> Find(const std::string& yaml, std::string_view needle) {
  size_t at = yaml.find(needle);
  if (at == std::string::npos) {
    ADD_FAILURE() << "'" << needle << "' not in the YAML";
    return {0, 0};
  }
  size_t line_start = yaml.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  int line = 1 + static_cast<int>(std::count(yaml.begin(), yaml.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
  return {line, static_cast<int>(at - line_start) + 1};
}

// The diagnostics of `yaml` hold an error at `needle` whose message has `text`.
void ExpectErrorAt(const std::string& yaml, std::string_view needle, std::string_view text) {
  LoadedDatabase loaded = CheckYaml(yaml);
  auto [line, column] = Find(yaml, needle);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(line, column, HasSubstr(std::string(text)))))
      << Rendered(loaded);
  EXPECT_EQ(ConfigAs<RingConfig>(loaded.database.behaviours[0]), nullptr) << "a refused section has no config";
}

TEST(RingConfigTest, NvmeAdminPairChecksClean) {
  LoadedDatabase loaded = CheckYaml(std::string(kClean));
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Database& db = loaded.database;
  const RingConfig* config = ConfigAs<RingConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->memory, db.FindSpace("host"));
  EXPECT_EQ(config->submission.entry_size, 64u);
  EXPECT_EQ(config->completion.entry_size, 16u);
  EXPECT_EQ(config->submission.doorbell.reg, db.FindRegister("SQ0TDBL"));
  EXPECT_EQ(config->submission.doorbell.bits.mask, 0xFFFFu);
  EXPECT_EQ(config->completion.doorbell.reg, db.FindRegister("CQ0HDBL"));
  ASSERT_TRUE(config->submission.index.has_value());
  EXPECT_EQ(config->submission.index->reg, db.FindRegister("ADMIN_SQ_HEAD"));
  ASSERT_TRUE(config->phase.has_value());
  EXPECT_EQ(config->phase->bits.mask, 1u);
  EXPECT_EQ(config->phase_start, 1u);
  ASSERT_TRUE(config->interrupt.has_value());
  EXPECT_EQ(config->interrupt->reg, db.FindRegister("ADMIN_IS"));
  ASSERT_EQ(config->fields.size(), 7u);
  EXPECT_EQ(config->fields[5].name, "CNS");
  EXPECT_EQ(config->fields[5].offset, 40u);
  EXPECT_EQ(config->fields[5].bits.mask, 0xFFu);
  ASSERT_EQ(config->commands.size(), 2u);
  EXPECT_EQ(config->commands[0].name, "identify");
  ASSERT_EQ(config->commands[0].writes.size(), 1u);
  EXPECT_EQ(config->commands[0].writes[0].width, 16u);
  EXPECT_EQ(config->commands[1].name, "set_features");
  ASSERT_EQ(config->completion_entry.size(), 5u);
  EXPECT_EQ(config->completion_entry[4].offset, 14u);
  EXPECT_EQ(config->default_status, 1u);
  ASSERT_TRUE(config->latency.has_value());
  EXPECT_EQ(config->latency->type(), ExpressionType::kTime);
  // CC.EN is the one register reset_when names: its writes are checked.
  EXPECT_THAT(config->reset_registers, ElementsAre(*db.FindRegister("CC")));
}

// The smallest ring: no state mirrors, no fields, no commands (every entry
// completes with default_status), always enabled.
TEST(RingConfigTest, OptionalKeysMayBeLeftOut) {
  std::string yaml = std::string(kClean.substr(0, kClean.find("behaviours:"))) + R"(behaviours:
  - name: tiny
    kind: ring
    memory: host
    submission: {base: 0x1000, size: 4, entry_size: 8, tail_doorbell: SQ0TDBL}
    completion:
      base: 0x2000
      size: 4
      entry_size: 4
      head_doorbell: CQ0HDBL
      entry: [{offset: 0, width: 16, value: "status"}]
)";
  LoadedDatabase loaded = CheckYaml(yaml);
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const RingConfig* config = ConfigAs<RingConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_FALSE(config->enabled.has_value());
  EXPECT_FALSE(config->latency.has_value());
  EXPECT_TRUE(config->commands.empty());
  EXPECT_EQ(config->default_status, 0u);
}

TEST(RingConfigTest, UnknownKeyIsReported) {
  std::string yaml = With("    sq_id: 0\n", "    sq_idx: 0\n");
  ExpectErrorAt(yaml, "sq_idx", "sq_idx");
}

TEST(RingConfigTest, MemoryMustBeAMemorySpace) {
  std::string yaml = With("memory: host", "memory: bar0");
  ExpectErrorAt(yaml, "bar0\n", "'bar0' is not a memory space");
  std::string misspelt = With("memory: host", "memory: hots");
  ExpectErrorAt(misspelt, "hots", "(did you mean 'host'?)");
}

TEST(RingConfigTest, MissingMemoryIsReported) {
  std::string yaml = With("    memory: host\n", "");
  ExpectErrorAt(yaml, "name: admin", "memory");
}

// Required keys of a ring are reported at the ring's mapping, each one.
TEST(RingConfigTest, MissingBaseSizeAndDoorbellAreReported) {
  std::string yaml = With("      base: \"ASQ & ~0xFFF\"\n      size: \"AQA.ASQS + 1\"\n", "");
  ExpectErrorAt(yaml, "entry_size: 64", "base");
  ExpectErrorAt(yaml, "entry_size: 64", "size");
  std::string no_doorbell = With("      head_doorbell: CQ0HDBL.CQH\n", "");
  ExpectErrorAt(no_doorbell, "base: \"ACQ", "head_doorbell");
}

TEST(RingConfigTest, MissingSubmissionIsReported) {
  std::string yaml = std::string(kClean);
  size_t from = yaml.find("    submission:");
  size_t to = yaml.find("    completion:");
  yaml.erase(from, to - from);
  ExpectErrorAt(yaml, "name: admin", "submission");
}

TEST(RingConfigTest, UnknownRegisterInAnExpression) {
  std::string yaml = With("base: \"ASQ & ~0xFFF\"", "base: \"ASQQ & ~0xFFF\"");
  ExpectErrorAt(yaml, "ASQQ", "unknown name 'ASQQ' (did you mean 'ASQ'?)");
}

TEST(RingConfigTest, UnknownFieldInAnExpression) {
  std::string yaml = With("size: \"AQA.ASQS + 1\"", "size: \"AQA.ASQZ + 1\"");
  ExpectErrorAt(yaml, "AQA.ASQZ", "unknown name 'AQA.ASQZ' (did you mean 'AQA.ASQS'?)");
}

TEST(RingConfigTest, UnknownEntryFieldInACommand) {
  std::string yaml = With("when: \"entry.OPC == 0x06\"", "when: \"entry.OPX == 0x06\"");
  ExpectErrorAt(yaml, "entry.OPX", "unknown name 'entry.OPX' (did you mean 'entry.OPC'?)");
}

// The queue's geometry is evaluated at the doorbell, with no entry in hand.
TEST(RingConfigTest, EntryFieldsAreNotNamesOfTheQueue) {
  std::string yaml = With("size: \"AQA.ASQS + 1\"", "size: \"entry.OPC + 1\"");
  ExpectErrorAt(yaml, "entry.OPC + 1", "unknown name 'entry.OPC'");
}

// `status` and `result` exist once a command has run: in the completion entry.
TEST(RingConfigTest, StatusIsANameOfTheCompletionEntryOnly) {
  std::string yaml = With("result: \"entry.CDW11\"", "result: \"status\"");
  ExpectErrorAt(yaml, "status\"}", "unknown name 'status'");
}

TEST(RingConfigTest, UnknownDoorbellRegisterAndField) {
  std::string yaml = With("tail_doorbell: SQ0TDBL.SQT", "tail_doorbell: SQ0TDB.SQT");
  ExpectErrorAt(yaml, "SQ0TDB.SQT", "unknown register 'SQ0TDB' (did you mean 'SQ0TDBL'?)");
  std::string field = With("head_doorbell: CQ0HDBL.CQH", "head_doorbell: CQ0HDBL.CQX");
  ExpectErrorAt(field, "CQ0HDBL.CQX", "register 'CQ0HDBL' has no field 'CQX'");
}

TEST(RingConfigTest, UnknownStateRegister) {
  std::string yaml = With("interrupt: ADMIN_IS.V0", "interrupt: ADMIN_IS.V1");
  ExpectErrorAt(yaml, "ADMIN_IS.V1", "register 'ADMIN_IS' has no field 'V1'");
}

TEST(RingConfigTest, DoorbellsNeedTheirOwnRegisters) {
  std::string yaml = With("head_doorbell: CQ0HDBL.CQH", "head_doorbell: SQ0TDBL");
  ExpectErrorAt(yaml, "SQ0TDBL\n", "each doorbell needs its own register");
}

TEST(RingConfigTest, EntryFieldOutsideTheEntry) {
  std::string yaml = With("PRP1: {offset: 24, width: 64}", "PRP1: {offset: 60, width: 64}");
  ExpectErrorAt(yaml, "60, width: 64", "8 bytes at offset 60 run past the 64-byte submission entry");
}

TEST(RingConfigTest, EntryFieldBitsOutsideItsWidth) {
  std::string yaml = With("bits: \"7:0\"", "bits: \"39:32\"");
  ExpectErrorAt(yaml, "\"39:32\"", "bits 39:32 do not fit its 32-bit width");
}

TEST(RingConfigTest, WidthsAre8To64Bits) {
  std::string yaml = With("CID: {offset: 2, width: 16}", "CID: {offset: 2, width: 12}");
  ExpectErrorAt(yaml, "12}", "must be 8, 16, 32 or 64 bits, got 12");
  std::string entry = With("{offset: 8, width: 16, value: \"sq_head\"}", "{offset: 8, width: 24, value: \"sq_head\"}");
  ExpectErrorAt(entry, "24, value: \"sq_head\"", "must be 8, 16, 32 or 64 bits, got 24");
  std::string write = With("width: 16, value: 0x1B36", "width: 7, value: 0x1B36");
  ExpectErrorAt(write, "7, value", "must be 8, 16, 32 or 64 bits, got 7");
}

TEST(RingConfigTest, CompletionFieldsMustNotOverlap) {
  std::string yaml = With("{offset: 10, width: 16, value: \"sq_id\"}", "{offset: 9, width: 16, value: \"sq_id\"}");
  LoadedDatabase loaded = CheckYaml(yaml);
  auto [line, column] = Find(yaml, "9, width: 16, value");
  auto [first_line, first_column] = Find(yaml, "8, width: 16, value");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(line, column, HasSubstr("bytes 9..10 overlap the field at offset 8"))))
      << Rendered(loaded);
  ASSERT_EQ(loaded.diagnostics.all()[0].notes.size(), 1u);
  EXPECT_EQ(loaded.diagnostics.all()[0].notes[0].loc.line, static_cast<uint32_t>(first_line));
  EXPECT_EQ(loaded.diagnostics.all()[0].notes[0].loc.column, static_cast<uint32_t>(first_column));
}

TEST(RingConfigTest, CompletionFieldsMustStayInTheEntry) {
  std::string yaml = With("{offset: 14, width: 16,", "{offset: 14, width: 32,");
  ExpectErrorAt(yaml, "14, width: 32", "4 bytes at offset 14 run past the 16-byte completion entry");
}

TEST(RingConfigTest, CompletionValueThatNeverFits) {
  std::string yaml = With("{offset: 10, width: 16, value: \"sq_id\"}", "{offset: 10, width: 16, value: 0x10000}");
  ExpectErrorAt(yaml, "0x10000}", "never fits 16 bits");
}

TEST(RingConfigTest, CompletionNeedsAnEntryLayout) {
  std::string yaml = std::string(kClean);
  size_t from = yaml.find("      entry:\n");
  size_t to = yaml.find("    sq_id: 0");
  yaml.erase(from, to - from);
  ExpectErrorAt(yaml, "base: \"ACQ", "entry");
}

TEST(RingConfigTest, ConditionThatIsATime) {
  std::string yaml = With("when: \"entry.OPC == 0x06\"", "when: 2ms");
  ExpectErrorAt(yaml, "2ms", "condition of command 'identify' of ring behaviour 'admin' is a time");
  std::string enabled = With("enabled: \"CC.EN == 1 && CSTS.RDY == 1\"", "enabled: 1us");
  ExpectErrorAt(enabled, "1us", "`enabled` of ring behaviour 'admin' is a time");
}

TEST(RingConfigTest, LatencyNeedsAUnit) {
  std::string yaml = With("latency: 0ns", "latency: 5");
  ExpectErrorAt(yaml, "5\n", "`latency` of ring behaviour 'admin' is a number, expected a time");
}

TEST(RingConfigTest, ConstantSizeBelowTwo) {
  std::string yaml = With("size: \"AQA.ACQS + 1\"", "size: 1");
  ExpectErrorAt(yaml, "1\n      entry_size: 16", "a ring needs 2 entries or more");
}

TEST(RingConfigTest, EntrySizeOfZero) {
  std::string yaml = With("entry_size: 64", "entry_size: 0");
  ExpectErrorAt(yaml, "0\n      tail_doorbell", "entry_size");
}

TEST(RingConfigTest, PhaseStartIsZeroOrOne) {
  std::string yaml = With("      interrupt: ADMIN_IS.V0\n", "      interrupt: ADMIN_IS.V0\n      phase_start: 2\n");
  ExpectErrorAt(yaml, "2\n      entry:", "phase_start");
}

TEST(RingConfigTest, ResetWhenMustNameARegister) {
  std::string yaml = With("reset_when: \"CC.EN == 0\"", "reset_when: \"1\"");
  ExpectErrorAt(yaml, "\"1\"", "names no register");
}

TEST(RingConfigTest, CommandNamesAreUnique) {
  std::string yaml = With("{name: set_features,", "{name: identify,");
  LoadedDatabase loaded = CheckYaml(yaml);
  auto [line, column] = Find(yaml, "identify,");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(line, column, HasSubstr("has two commands named 'identify'"))))
      << Rendered(loaded);
}

// A command without `when:` takes every entry: the ones after it never run.
TEST(RingConfigTest, CommandsAfterACatchAllAreWarned) {
  std::string yaml = With("        when: \"entry.OPC == 0x06\"\n", "");
  LoadedDatabase loaded = CheckYaml(yaml);
  auto [line, column] = Find(yaml, "set_features");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(WarningAt(line, column, HasSubstr("never runs: command 'identify' before it has no `when:`"))))
      << Rendered(loaded);
  EXPECT_NE(ConfigAs<RingConfig>(loaded.database.behaviours[0]), nullptr) << "a warning keeps the config";
}

// Every mistake of a section is reported, not just the first.
TEST(RingConfigTest, EveryMistakeIsReported) {
  std::string yaml = With("base: \"ASQ & ~0xFFF\"", "base: \"ASQQ\"");
  size_t at = yaml.find("latency: 0ns");
  yaml.replace(at, 12, "latency: 7");
  LoadedDatabase loaded = CheckYaml(yaml);
  EXPECT_EQ(loaded.diagnostics.error_count(), 2u) << Rendered(loaded);
}

// ------------------------------------------------- queue sets and data

TEST(RingConfigTest, ASetOfQueuesNeedsADoorbellPerIdAndResolvesEach) {
  ExpectErrorAt(With("    default_status: 0x01", "    default_status: 0x01\n    queues: 2"), "SQ0TDBL.SQT",
                "the ring has 2 queues, so the doorbell names a register per queue id with {id}");
  std::string templated = With("tail_doorbell: SQ0TDBL.SQT", "tail_doorbell: \"SQ{id}TDBL.SQT\"");
  templated = templated.replace(templated.find("head_doorbell: CQ0HDBL.CQH"), 26, "head_doorbell: \"CQ{id}HDBL.CQH\"");
  templated = templated.replace(templated.find("    default_status: 0x01"), 24, "    default_status: 0x01\n    queues: 2");
  ExpectErrorAt(templated, "\"SQ{id}TDBL.SQT\"", "SQ1TDBL");
}

TEST(RingConfigTest, QueueActionsNeedASetOfQueuesAndOneActionPerCommand) {
  ExpectErrorAt(With("      - {name: set_features, when: \"entry.OPC == 0x09\", status: 0, result: \"entry.CDW11\"}",
                     "      - {name: create, delete_submission_queue: entry.CNS}"),
                "entry.CNS}", "the ring has one queue pair (give `queues:`");
}

TEST(RingConfigTest, ACopyNamesItsEndsAndTheDataPointerMustExist) {
  auto command = [](std::string_view copy) {
    return With("      - {name: set_features, when: \"entry.OPC == 0x09\", status: 0, result: \"entry.CDW11\"}",
                "      - {name: move, copy: " + std::string(copy) + "}");
  };
  ExpectErrorAt(command("{from: data, to: {space: host, offset: 0}, bytes: 4}"), "data, to",
                "the ring has no `data:` saying where it is");
  ExpectErrorAt(command("{from: zeros, to: zeros, bytes: 4}"), "zeros, bytes", "expected `data` or {space: NAME");
  ExpectErrorAt(command("{from: zeros, to: {space: hots, offset: 0}, bytes: 4}"), "hots",
                "'hots' is not a memory space");
  ExpectErrorAt(command("{from: zeros, to: {space: host, offset: entry.NOPE}, bytes: 4}"), "entry.NOPE", "entry.NOPE");
  std::string with_data = command("{from: data, to: data, bytes: 4}");
  with_data.replace(with_data.find("    default_status: 0x01"), 24,
                    "    default_status: 0x01\n    data: {first: entry.PRP1, second: 0, page_size: 4096}");
  ExpectErrorAt(with_data, "data, bytes", "both ends are the data pointer");
}

TEST(RingConfigTest, AQueueSetChecksCleanWithEveryAction) {
  std::string yaml = With("      - {name: set_features, when: \"entry.OPC == 0x09\", status: 0, result: \"entry.CDW11\"}",
                          "      - {name: hold, when: \"entry.OPC == 0x0C\", hold: true}\n"
                          "      - {name: move, copy: [{from: zeros, to: data, bytes: 64}, {from: data, to: {space: "
                          "host, offset: \"entry.CDW10 * 512\"}, bytes: 512}]}");
  yaml.replace(yaml.find("    default_status: 0x01"), 24,
               "    default_status: 0x01\n"
               "    data: {first: entry.PRP1, second: entry.CDW11, page_size: \"0x1000\", error_status: 0x13}\n"
               "    queue_status: {invalid_id: 0x101, in_use: 0x10C}\n"
               "    vector_status: ADMIN_IS");
  LoadedDatabase loaded = CheckYaml(yaml);
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const RingConfig* config = ConfigAs<RingConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  ASSERT_TRUE(config->data.has_value());
  EXPECT_EQ(config->data->error_status, 0x13u);
  EXPECT_EQ(config->queue_status.in_use, 0x10Cu);
  EXPECT_EQ(config->vector_status, loaded.database.FindRegister("ADMIN_IS"));
  ASSERT_EQ(config->commands.size(), 3u);
  EXPECT_TRUE(config->commands[1].hold);
  ASSERT_EQ(config->commands[2].copies.size(), 2u);
  EXPECT_EQ(config->commands[2].copies[0].from.kind, RingCopyEnd::Kind::kZeros);
  EXPECT_EQ(config->commands[2].copies[1].to.kind, RingCopyEnd::Kind::kSpace);
}

// A ring's expressions take the database's `let:` names, as every other
// expression does: each is compiled again over the ring's own operands.
TEST(RingConfigTest, ARingsExpressionsTakeNamedExpressions) {
  std::string yaml = With("      - {name: set_features, when: \"entry.OPC == 0x09\", status: 0, result: \"entry.CDW11\"}",
                          "      - {name: move, copy: {from: zeros, to: data, bytes: \"WHOLE_PAGES * 64\"}}");
  yaml.replace(yaml.find("registers:\n"), 11, "let:\n  PAGE: \"0x1000 << (CC.EN + 1)\"\n  WHOLE_PAGES: \"PAGE / 0x1000\"\nregisters:\n");
  yaml.replace(yaml.find("    default_status: 0x01"), 24,
               "    default_status: 0x01\n    data: {first: entry.PRP1, second: entry.CDW11, page_size: PAGE}");
  LoadedDatabase loaded = CheckYaml(yaml);
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const RingConfig* config = ConfigAs<RingConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  ASSERT_TRUE(config->data.has_value());
  EXPECT_FALSE(config->data->page_size.constant());  // it reads CC.EN, through the ring's operands
}

}  // namespace
}  // namespace regemu::regdb
