// The tree cites only what a user's checkout or the public can reach: no
// file names a path of the machine the project was written on (/work/...,
// ../shared/..., shared/reference, shared/seeds), and no comment, ref or
// page cites a private fact sheet (driver-facts 3.1, nvme-facts.md §12,
// "facts §6", oa-recording.md) instead of the public source it restates
// (the specification and its section, the Linux file and function), nor a
// numbered text extraction ("seed 001", "Seed 002 (HSW PRM Observability)")
// instead of the public manual it was taken from ("ICL PRM Vol 13, ...",
// named in full in each database's README).
//
// Every tracked text file is read (`git ls-files`; without git, the tree
// minus build*/ and .git/). A hit fails naming file:line and the text.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace regemu::doc_test {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = REGEMU_SOURCE_DIR;

// This file spells the patterns out, so it is the one file not read.
constexpr const char* kThisFile = "tests/doc/doc_sources_test.cpp";

// libFuzzer's seeds: inputs named by the hash of their bytes (mutated copies
// of old databases), not text anybody reads; rewriting them would rename them.
constexpr const char* kFuzzCorpus = "tests/fuzz/corpus/";

struct Pattern {
  const char* what;
  std::regex re;
};

const std::vector<Pattern>& Patterns() {
  static const std::vector<Pattern> patterns = {
      // An absolute path of the build machine; `${dir}/work/x` (a folder
      // named work under a variable) is not one.
      {"a path outside the tree (/work/...)", std::regex(R"((^|[^A-Za-z0-9_.}$-])/work/)")},
      {"a path outside the tree (../shared/...)", std::regex(R"(\.\./shared/)")},
      {"a path outside the tree (shared/reference, shared/seeds)", std::regex(R"(\bshared/(reference|seeds)\b)")},
      // driver-facts 3.1, nvme-facts.md §12, uml-facts: a fact sheet's name.
      {"a fact-sheet citation (<name>-facts)", std::regex(R"([A-Za-z0-9]-facts\b)")},
      // "facts §6", "facts 4.7": a section of a fact sheet. The word "facts"
      // in prose ("the facts it needs", "JSON carries the same facts") is fine.
      {"a fact-sheet citation (facts §N)", std::regex(R"(\bfacts (§ ?|section )?\d)")},
      {"a fact-sheet citation (oa-recording.md)", std::regex(R"(\boa-recording\.md\b)")},
      // "seed 001", "Seed 002", "SEED 000 GIVES": a private extraction's
      // number. A fuzzer's seed corpus or a random seed ("seeded", "seed=42")
      // is fine.
      {"a private-extraction citation (seed NNN)",
       std::regex(R"((^|[^A-Za-z0-9_])seed ?[0-9]{3}([^0-9]|$))", std::regex::icase)},
  };
  return patterns;
}

// The tracked files, relative to the source dir. Falls back to a walk of
// the tree when the source dir is not a git checkout (an unpacked tarball).
std::vector<std::string> TrackedFiles() {
  std::vector<std::string> files;
  std::string command = "git -C '" + kRoot.string() + "' ls-files -z 2>/dev/null";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::string name;
    for (int c = fgetc(pipe); c != EOF; c = fgetc(pipe)) {
      if (c == '\0') {
        files.push_back(name);
        name.clear();
      } else {
        name.push_back(static_cast<char>(c));
      }
    }
    int status = pclose(pipe);
    if (status == 0 && !files.empty()) return files;
    files.clear();
  }
  for (auto it = fs::recursive_directory_iterator(kRoot); it != fs::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name.rfind("build", 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), kRoot).generic_string());
  }
  return files;
}

bool IsText(const std::string& bytes) { return bytes.find('\0') == std::string::npos; }

// Every pattern's match contains one of these: text without any is not
// handed to std::regex (slow in a debug build on the 10 MB files).
bool MayMatch(const std::string& text) {
  for (const char* needle : {"/work/", "shared/", "facts", "oa-recording.md", "seed", "Seed", "SEED"}) {
    if (text.find(needle) != std::string::npos) return true;
  }
  return false;
}

// Every line of every tracked text file that matches a pattern, as
// "file:line: what: the line".
std::vector<std::string> Findings(int& files_read) {
  std::vector<std::string> found;
  files_read = 0;
  for (const std::string& file : TrackedFiles()) {
    if (file == kThisFile || file.rfind(kFuzzCorpus, 0) == 0) continue;
    std::ifstream in(kRoot / file, std::ios::binary);
    if (!in) continue;  // a tracked file deleted in the work tree
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string bytes = buffer.str();
    if (!IsText(bytes)) continue;
    ++files_read;
    if (!MayMatch(bytes)) continue;
    std::istringstream lines(bytes);
    std::string line;
    for (int number = 1; std::getline(lines, line); ++number) {
      if (!MayMatch(line)) continue;
      for (const Pattern& pattern : Patterns()) {
        if (std::regex_search(line, pattern.re)) {
          found.push_back(file + ":" + std::to_string(number) + ": " + pattern.what + ": " + line);
          break;
        }
      }
    }
  }
  return found;
}

TEST(DocSources, NoFileNamesAPathOutsideTheTreeOrCitesAFactSheet) {
  int files_read = 0;
  EXPECT_THAT(Findings(files_read), ::testing::IsEmpty())
      << "cite the public source (specification, revision and section; the Linux file and function) instead";
  EXPECT_GT(files_read, 500) << "the tree's text files were not found under " << kRoot;
}

// The patterns catch what they are for and leave prose alone.
TEST(DocSources, PatternsAreExact) {
  auto hits = [](const std::string& line) {
    if (!MayMatch(line)) return false;
    for (const Pattern& pattern : Patterns()) {
      if (std::regex_search(line, pattern.re)) return true;
    }
    return false;
  };
  EXPECT_TRUE(hits("# Facts: /work/shared/reference/nvme-facts.md"));
  EXPECT_TRUE(hits("(`../shared/reference/amd-facts.md` 1-2)"));
  EXPECT_TRUE(hits("ref: \"NVMe 1.4 §3.1.1 [M]; facts §2\""));
  EXPECT_TRUE(hits("bits driver-facts 1.3; enable"));
  EXPECT_TRUE(hits("(pmu-facts.md 4.D)"));
  EXPECT_TRUE(hits("see uml-facts"));
  EXPECT_TRUE(hits("layout: driver-facts 4.7, facts 4.7"));
  EXPECT_TRUE(hits("as oa-recording.md lays them out"));
  EXPECT_TRUE(hits("ref: \"seed 001, Slice Registers and Die Recovery\""));
  EXPECT_TRUE(hits("# Seed 002 (HSW PRM Observability), \"Performance Counter Reporting\""));
  EXPECT_TRUE(hits("# WHAT SEED 000 GIVES."));
  EXPECT_TRUE(hits("(not in seed004)"));
  EXPECT_FALSE(hits("file(GLOB stray \"${dir}/work/*.json\")"));
  EXPECT_FALSE(hits("the JSON carries the same facts as the table"));
  EXPECT_FALSE(hits("const WriteFacts& facts);"));
  EXPECT_FALSE(hits("regemu run --oa-recording FILE"));
  EXPECT_FALSE(hits("Facts about IGT's reader"));
  EXPECT_FALSE(hits("ref: \"ICL PRM Vol 13, Slice Registers and Die Recovery\""));
  EXPECT_FALSE(hits("each run 10 s on its seed corpus"));
  EXPECT_FALSE(hits("std::mt19937 rng(seed); // seed 12345678"));
  EXPECT_FALSE(hits("the CRNG seeded at boot"));
}

}  // namespace
}  // namespace regemu::doc_test
