// `regemu run --json` as a tool reads it: one document on stdout, the exit
// status in it, each command's times, value and check, each violation's
// kind, register, field and rule, and the error of a run that never began.
// The shape is docs/run-json.schema.json; tests/schema validates every
// shipped script's run against it.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_support.hpp"

namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using nlohmann::json;
using regemu::testing_support::CliResult;
using regemu::testing_support::RunShell;

// `regemu run --json DB -` with `script` on stdin; the document it printed.
json RunJson(const std::string& db, const std::string& script, int expected_exit) {
  CliResult r = RunShell("printf '" + script + "' | '" + std::string(REGEMU_BINARY) + "' run --json " + db + " -");
  EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
  json document = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(document.is_discarded()) << "not one JSON document:\n" << r.out;
  if (!document.is_discarded()) {
    EXPECT_EQ(document["exit_status"], expected_exit);
  }
  return document;
}

TEST(RegemuRunJson, EachCommandCarriesItsTimesValueAndCheck) {
  json d = RunJson("yaml/hpet",
                   "write32 T0_CONF 0x4\\nwrite64 T0_CMP 100\\nwrite32 GEN_CONF 0x3\\nstep 6985ns\\n"
                   "read-irq IRQ0\\nexpect-edges IRQ0 1\\nexpect32 GEN_CONF 0x3\\nexpect-no-msi  # none\\n",
                   0);
  EXPECT_EQ(d["format"], "regemu-run");
  EXPECT_EQ(d["version"], 1);
  EXPECT_EQ(d["result"], "pass");
  EXPECT_EQ(d["script"], "<stdin>");
  ASSERT_EQ(d["commands"].size(), 8u);
  const json& step = d["commands"][3];
  EXPECT_EQ(step["start_ns"], 0);
  EXPECT_EQ(step["end_ns"], 6985);
  EXPECT_TRUE(step["check"].is_null());
  const json& read_irq = d["commands"][4];
  EXPECT_EQ(read_irq["command"], "read-irq");
  EXPECT_EQ(read_irq["value"], 0);  // the pulse is over...
  EXPECT_EQ(read_irq["edges"], 1);  // ...but it came
  EXPECT_EQ(read_irq["printed"], "read-irq IRQ0 = 0 (edges 1)");
  EXPECT_EQ(d["commands"][5]["check"], "passed");
  EXPECT_EQ(d["commands"][6]["value"], 3);
  EXPECT_EQ(d["commands"][7]["text"], "expect-no-msi");  // without its comment
  EXPECT_EQ(d["summary"]["checks"], 3);
}

TEST(RegemuRunJson, AFailedCheckIsMarkedAndListed) {
  json d = RunJson("yaml/hpet", "expect-edges IRQ0 1\\nexpect-irq IRQ0 0\\n", 1);
  EXPECT_EQ(d["result"], "fail");
  EXPECT_EQ(d["commands"][0]["check"], "failed");
  EXPECT_THAT(d["commands"][0]["failures"][0].get<std::string>(), HasSubstr("but it rose 0 time(s)"));
  EXPECT_EQ(d["commands"][1]["check"], "passed");
  ASSERT_EQ(d["failures"].size(), 1u);
  EXPECT_EQ(d["failures"][0]["line"], 1);
  EXPECT_EQ(d["summary"]["failed"], 1);
}

// A driver writing the read-only vendor id: the violation by name, field
// and rule, pointed at from the command that made it.
TEST(RegemuRunJson, AViolationNamesItsKindRegisterFieldAndRule) {
  json d = RunJson("yaml/icl", "write16 config 0x0 0x1234\\n", 1);
  ASSERT_EQ(d["violations"].size(), 1u);
  const json& v = d["violations"][0];
  EXPECT_EQ(v["kind"], "read-only");
  EXPECT_EQ(v["register"], "VID2");
  EXPECT_EQ(v["field"], "VID");
  EXPECT_EQ(v["op"], "write");
  EXPECT_EQ(v["width"], 16);
  EXPECT_EQ(v["value"], 0x1234);
  EXPECT_FALSE(v["rule"].get<std::string>().empty());
  EXPECT_FALSE(v["announced"]);
  EXPECT_EQ(d["commands"][0]["violations"], json::array({0}));
  EXPECT_EQ(d["summary"]["not_announced"], 1);
}

TEST(RegemuRunJson, AnAnnouncedViolationPassesAndSaysSo) {
  json d = RunJson("yaml/icl", "expect-violation read-only\\nwrite16 config 0x0 0x1234\\n", 0);
  EXPECT_EQ(d["commands"][0]["check"], "passed");
  EXPECT_TRUE(d["violations"][0]["announced"]);
  EXPECT_EQ(d["violations"][0]["line"], 2);
}

TEST(RegemuRunJson, AScriptErrorIsADocumentWithItsDiagnostics) {
  json d = RunJson("yaml/hpet", "expect-edges IRQ99 1\\nwrite32 NOPE 1\\n", 2);
  EXPECT_EQ(d["result"], "error");
  EXPECT_THAT(d["commands"], IsEmpty());
  ASSERT_EQ(d["diagnostics"].size(), 2u);
  EXPECT_EQ(d["diagnostics"][0]["line"], 1);
  EXPECT_EQ(d["diagnostics"][0]["column"], 14);
  EXPECT_THAT(d["diagnostics"][1]["message"].get<std::string>(), HasSubstr("NOPE"));
  EXPECT_THAT(d["error"]["message"].get<std::string>(), HasSubstr("<stdin>:2:9: error:"));
}

TEST(RegemuRunJson, ADatabaseErrorIsADocumentToo) {
  json d = RunJson("no/such/db", "reset\\n", 2);
  EXPECT_EQ(d["result"], "error");
  EXPECT_THAT(d["error"]["message"].get<std::string>(), HasSubstr("no/such/db"));
}

TEST(RegemuRunJson, AnErrorWhileRunningStopsTheListWithItsLine) {
  json d = RunJson("yaml/icl", "reset\\nrestore\\nreset\\n", 2);
  EXPECT_EQ(d["commands"].size(), 2u);
  EXPECT_EQ(d["error"]["line"], 2);
  EXPECT_THAT(d["error"]["message"].get<std::string>(), HasSubstr("restore without a snapshot"));
}

}  // namespace
