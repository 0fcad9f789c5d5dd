// `regemu coverage merge -o OUT FILE...` and `regemu coverage report
// FILE... [--json]` (docs/coverage.md) on coverage files written here
// in the documented format: the table, the JSON, merging files and
// folders, and bad input (exit 1, each bad file named) and usage (exit 2).
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace {

using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

// One test process's file: a device of "icl" (layout 0xA) that read and
// wrote a little, woke the render domain and raised a protocol violation.
constexpr const char* kProcessFile = R"({
  "format": "regemu-coverage", "version": 1, "processes": 1,
  "models": [{
    "device": "icl", "layout": "0x000000000000000a", "registers": 10, "fields": 20,
    "effect_registers": {"w1c": 4, "masked-write": 2},
    "processes": 1, "devices": @DEVICES@,
    "touched": {
      "GT_IIR": {"reads": 2, "writes": 1, "fields_changed": {"RCS0": 1}, "effects": {"w1c": 1}},
      "FW_RENDER": {"reads": 0, "writes": 2, "fields_changed": {"KERNEL": 2}, "effects": {"masked-write": 2}},
      "GT_ISR": {"reads": 3, "writes": 0, "fields_changed": {}, "effects": {}}
    },
    "behaviours": {
      "forcewake": {"kind": "forcewake", "points": [
        {"group": "domains woken", "name": "render", "hits": @RENDER@},
        {"group": "domains woken", "name": "gt", "hits": 0},
        {"group": "domains woken", "name": "media", "hits": 0}]}
    },
    "violations": {"protocol": {"GT_IIR": 1, "": 2}}
  }]
})";

class RegemuCoverageCli : public ::testing::Test {
 protected:
  RegemuCoverageCli() {
    std::string pattern = (std::filesystem::temp_directory_path() / "regemu-coverage-cli-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~RegemuCoverageCli() override {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  // A process file with `devices` devices and `render` wake-ups, at dir_/name.
  std::string File(const std::string& name, int devices = 1, int render = 1, const std::string& layout = "a") {
    std::string text = kProcessFile;
    text.replace(text.find("@DEVICES@"), 9, std::to_string(devices));
    text.replace(text.find("@RENDER@"), 8, std::to_string(render));
    text.replace(text.find("000000000000000a"), 16, std::string(16 - layout.size(), '0') + layout);
    return Write(name, text);
  }
  std::string Write(const std::string& name, const std::string& text) {
    std::filesystem::path path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

  std::filesystem::path dir_;
};

TEST_F(RegemuCoverageCli, ReportPrintsOneTablePerModel) {
  CliResult r = RunRegemu("coverage report " + File("one.json", 3));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("icl: 1 test process, 3 devices\n"));
  EXPECT_THAT(r.out, ContainsRegex("  registers read +2 of 10 \\(20%\\)\n"));
  EXPECT_THAT(r.out, ContainsRegex("  registers written +2 of 10 \\(20%\\)\n"));
  EXPECT_THAT(r.out, ContainsRegex("  fields changed +2 of 20 \\(10%\\)\n"));
  EXPECT_THAT(r.out, ContainsRegex("  policy effects +masked-write 1 of 2 registers, w1c 1 of 4\n"));
  EXPECT_THAT(r.out, HasSubstr("  forcewake (forcewake): domains woken 1 of 3\n"));
  EXPECT_THAT(r.out, HasSubstr("      domains woken missed: gt, media\n"));
  EXPECT_THAT(r.out, ContainsRegex("  violations +protocol 3: \\(no register\\) 2, GT_IIR 1\n"));
}

TEST_F(RegemuCoverageCli, ReportMergesFilesAndFolders) {
  File("runs/a.json", 1, 1);
  File("runs/b.json", 2, 0);
  Write("runs/notes.txt", "not a coverage file, and not *.json: skipped");
  CliResult r = RunRegemu("coverage report " + (dir_ / "runs").string() + " " + File("c.json", 4, 5));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("icl: 3 test processes, 7 devices\n"));
  EXPECT_THAT(r.out, HasSubstr("domains woken 1 of 3"));
}

TEST_F(RegemuCoverageCli, AnotherLayoutIsReportedApart) {
  CliResult r = RunRegemu("coverage report " + File("a.json") + " " + File("b.json", 1, 1, "b"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("icl: 1 test process, 1 device\n"));
  EXPECT_THAT(r.out, HasSubstr("icl (2): 1 test process, 1 device\n"));
}

TEST_F(RegemuCoverageCli, ReportJsonSaysTheSame) {
  CliResult r = RunRegemu("coverage report --json " + File("a.json", 1, 2) + " " + File("b.json", 1, 0));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["processes"], 2);
  ASSERT_EQ(report["models"].size(), 1u);
  const nlohmann::json& icl = report["models"][0];
  EXPECT_EQ(icl["name"], "icl");
  EXPECT_EQ(icl["device"], "icl");
  EXPECT_EQ(icl["devices"], 2);
  EXPECT_EQ(icl["registers"], (nlohmann::json{{"total", 10}, {"read", 2}, {"written", 2}}));
  EXPECT_EQ(icl["fields"], (nlohmann::json{{"total", 20}, {"changed", 2}}));
  EXPECT_EQ(icl["effects"][1],
            (nlohmann::json{{"effect", "w1c"}, {"registers", 1}, {"of", 4}, {"accesses", 2}}));
  const nlohmann::json& group = icl["behaviours"][0]["groups"][0];
  EXPECT_EQ(group["group"], "domains woken");
  EXPECT_EQ(group["hit"], 1);
  EXPECT_EQ(group["of"], 3);
  EXPECT_EQ(group["points"][0], (nlohmann::json{{"name", "render"}, {"hits", 2}}));
  EXPECT_EQ(icl["violations"][0]["kind"], "protocol");
  EXPECT_EQ(icl["violations"][0]["count"], 6);
}

TEST_F(RegemuCoverageCli, MergeWritesOneFileTheReportReads) {
  std::string merged = (dir_ / "out" / "merged.json").string();
  CliResult m = RunRegemu("coverage merge -o " + merged + " " + File("a.json", 1) + " " + File("b.json", 2));
  ASSERT_EQ(m.exit_code, 0) << m.err;
  EXPECT_THAT(m.err, HasSubstr("2 file(s), 2 process(es), 1 model(s) into " + merged));
  CliResult r = RunRegemu("coverage report " + merged);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("icl: 2 test processes, 3 devices\n"));

  CliResult out = RunRegemu("coverage merge -o - " + merged);
  ASSERT_EQ(out.exit_code, 0) << out.err;
  nlohmann::json file = nlohmann::json::parse(out.out);
  EXPECT_EQ(file["format"], "regemu-coverage");
  EXPECT_EQ(file["version"], 1);
  EXPECT_EQ(file["processes"], 2);
}

// A bad file fails the whole command (a merge that skipped it would
// under-report), and every bad file is named.
TEST_F(RegemuCoverageCli, BadFilesAreNamedAndExitOne) {
  std::string good = File("good.json");
  std::string text = Write("notes.json", "hello");
  std::string foreign = Write("profile.json", R"({"format": "llvm", "data": []})");
  CliResult r = RunRegemu("coverage report " + good + " " + text + " " + foreign);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(text + ": not a regemu coverage file (not JSON: "));
  EXPECT_THAT(r.err, HasSubstr(foreign + ": not a regemu coverage file"));
  EXPECT_EQ(r.out, "");

  std::string merged = (dir_ / "merged.json").string();
  CliResult m = RunRegemu("coverage merge -o " + merged + " " + good + " " + text);
  EXPECT_EQ(m.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(merged));

  CliResult empty = RunRegemu("coverage report " + (dir_ / "empty").string() + "/");
  EXPECT_EQ(empty.exit_code, 2) << "no such folder yet";
  std::filesystem::create_directories(dir_ / "empty");
  empty = RunRegemu("coverage report " + (dir_ / "empty").string());
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_THAT(empty.err, HasSubstr("holds no *.json coverage file"));
}

// A suite of scripts under REGEMU_COVERAGE: each `regemu run` is a test process.
TEST_F(RegemuCoverageCli, RegemuRunCountsCoverageUnderTheEnvironment) {
  std::string runs = (dir_ / "runs").string();
  for (const char* script : {"tests/scripts/icl_forcewake_get_put.script", "tests/scripts/icl_irq_handler.script"}) {
    CliResult run = regemu::testing_support::RunShell("REGEMU_COVERAGE='" + runs + "/%p.json' '" + REGEMU_BINARY +
                                                      "' run --quiet yaml/icl " + script);
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  }
  CliResult r = RunRegemu("coverage report " + runs);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("icl: 2 test processes, 2 devices\n"));
  EXPECT_THAT(r.out, ContainsRegex("forcewake \\(forcewake\\): domains woken [1-9]"));
  EXPECT_THAT(r.out, ContainsRegex("engines serviced [1-9]"));
  CliResult plain = RunRegemu("run --quiet yaml/icl tests/scripts/icl_forcewake_get_put.script");
  EXPECT_EQ(plain.exit_code, 0);
}

TEST_F(RegemuCoverageCli, UsageErrorsExitTwo) {
  CliResult missing = RunRegemu("coverage report " + (dir_ / "absent.json").string());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no such file or folder: " + (dir_ / "absent.json").string()));
  EXPECT_EQ(RunRegemu("coverage report").exit_code, 2);
  EXPECT_EQ(RunRegemu("coverage merge " + File("a.json")).exit_code, 2) << "-o is required";
  EXPECT_EQ(RunRegemu("coverage").exit_code, 2);
  CliResult help = RunRegemu("coverage --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("merge"));
  EXPECT_THAT(help.out, HasSubstr("report"));
}

}  // namespace

namespace {

// `regemu doc --coverage` takes coverage files the way `regemu coverage` does.
TEST_F(RegemuCoverageCli, DocPaintsAFolderOfProcessFilesOntoTheMap) {
  File("run/a.json");
  File("run/b.json");
  std::string site = (dir_ / "site").string();
  CliResult r = RunRegemu("doc yaml/icl -o '" + site + "' --coverage '" + (dir_ / "run").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string index = regemu::testing_support::Slurp(dir_ / "site" / "index.html");
  EXPECT_THAT(index, HasSubstr("From 2 files: 2 test processes"));
  EXPECT_THAT(index, HasSubstr("forcewake: domains woken"));
}

TEST_F(RegemuCoverageCli, DocNamesEachBadCoverageFileAndAMissingOneExitsTwo) {
  std::string site = (dir_ / "site").string();
  CliResult bad = RunRegemu("doc yaml/icl -o '" + site + "' --coverage '" + Write("bad.json", "{") + "'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.err, HasSubstr("regemu doc: "));
  EXPECT_THAT(bad.err, HasSubstr("bad.json"));
  CliResult missing = RunRegemu("doc yaml/icl -o '" + site + "' --coverage '" + (dir_ / "nosuch.json").string() + "'");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("regemu doc: no such file or folder"));
}

}  // namespace
