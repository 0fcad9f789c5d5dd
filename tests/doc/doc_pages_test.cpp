// The documentation held to the code: README.md, yaml/README.md and every
// page under docs/. Links resolve; the paths the README names exist; the
// CLI reference (docs/cli.md) and `regemu --help` agree both ways; and
// every code block is a tested file, a database regdb loads clean, or
// commands whose subcommands and flags `regemu` has.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regdb/loader.hpp"
#include "tests/doc/doc_test_support.hpp"
#include "tests/doc/markdown_page.hpp"

namespace regemu::doc_test {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = REGEMU_SOURCE_DIR;
const std::regex kLineContinuation(R"(\\\n)");        // a backslash-newline in shell text
const std::regex kFileMarker(R"((file|excerpt)=(\S+))");  // ```yaml file=PATH

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<MarkdownPage> AllPages() {
  std::vector<MarkdownPage> pages;
  for (const fs::path& page : DocumentationPages(kRoot)) pages.push_back(ReadMarkdownPage(kRoot / page));
  return pages;
}

std::string Where(const MarkdownPage& page, int line) {
  return fs::relative(page.path, kRoot).string() + ":" + std::to_string(line);
}

// ---- links --------------------------------------------------------------

// A relative link names a file or folder of the tree; with `#anchor` into a
// markdown page, a heading of that page.
TEST(DocLinks, EveryRelativeLinkResolves) {
  std::map<fs::path, MarkdownPage> pages;
  for (MarkdownPage& page : AllPages()) pages.emplace(page.path, std::move(page));
  std::vector<std::string> broken;
  for (const auto& [path, page] : pages) {
    for (const InlineSpan& link : page.links) {
      if (link.text.find("://") != std::string::npos || link.text.rfind("mailto:", 0) == 0) continue;
      size_t hash = link.text.find('#');
      std::string file = link.text.substr(0, hash);
      std::string anchor = hash == std::string::npos ? "" : link.text.substr(hash + 1);
      fs::path target = file.empty() ? path : (path.parent_path() / file).lexically_normal();
      if (!fs::exists(target)) {
        broken.push_back(Where(page, link.line) + ": " + link.text + ": no such file");
        continue;
      }
      if (anchor.empty() || target.extension() != ".md") continue;
      auto known = pages.find(target);
      MarkdownPage other = known != pages.end() ? known->second : ReadMarkdownPage(target);
      if (!other.anchors.contains(anchor)) {
        broken.push_back(Where(page, link.line) + ": " + link.text + ": no heading makes #" + anchor);
      }
    }
  }
  EXPECT_THAT(broken, ::testing::IsEmpty());
}

// ---- paths the README names -------------------------------------------

// `tools/demo.sh`, `yaml/icl`, `LICENSE`: a backticked span is taken for a
// path of the tree when its first component is a top-level entry of the
// source tree (or it is one of the top-level files); then it must exist.
// Globs must match something. `build/` is made by the build, not kept.
std::vector<std::string> MissingPaths(const MarkdownPage& page, int& checked) {
  static const std::regex path_like(R"(^\.?/?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.*%-]+)*/?$)");
  static const std::regex top_level_page(R"([A-Z]+\.md)");  // CHANGELOG.md
  std::vector<std::string> missing;
  const MarkdownPage& readme = page;
  for (const InlineSpan& span : page.code_spans) {
    std::string text = span.text;
    if (text.rfind("./", 0) == 0) text = text.substr(2);
    if (!std::regex_match(text, path_like)) continue;
    std::string first = text.substr(0, text.find('/'));
    if (first == "build") continue;
    bool top_level_file = text.find('/') == std::string::npos && fs::is_regular_file(kRoot / text);
    bool under_top_level = text.find('/') != std::string::npos && fs::is_directory(kRoot / first);
    bool looks_like_top_level_file =
        text.find('/') == std::string::npos && (text == "LICENSE" || std::regex_match(text, top_level_page));
    if (!top_level_file && !under_top_level && !looks_like_top_level_file) continue;
    ++checked;
    // A clean clone has nothing beside it: a relative path that leaves the
    // repository (a ../ path) resolves only on the machine that wrote it.
    // (Absolute ones, /proc/self/maps, name the system's own files.)
    fs::path inside = (kRoot / text).lexically_normal().lexically_relative(kRoot.lexically_normal());
    if (fs::path(text).is_relative() && (inside.empty() || *inside.begin() == "..")) {
      missing.push_back(Where(readme, span.line) + ": " + text + " is outside the repository");
      continue;
    }
    if (text.find('*') == std::string::npos) {
      if (!fs::exists(kRoot / text)) missing.push_back(Where(readme, span.line) + ": " + text);
      continue;
    }
    // A glob in the last component: something in its folder matches.
    fs::path folder = fs::path(text).parent_path();
    std::string pattern = std::regex_replace(fs::path(text).filename().string(), std::regex(R"(\.)"), "\\.");
    pattern = std::regex_replace(pattern, std::regex(R"(\*)"), ".*");
    bool matched = false;
    if (fs::is_directory(kRoot / folder)) {
      for (const auto& entry : fs::directory_iterator(kRoot / folder)) {
        matched = matched || std::regex_match(entry.path().filename().string(), std::regex(pattern));
      }
    }
    if (!matched) missing.push_back(Where(readme, span.line) + ": " + text + " matches nothing");
  }
  return missing;
}

TEST(DocPaths, EveryPathTheReadmeNamesExists) {
  int checked = 0;
  EXPECT_THAT(MissingPaths(ReadMarkdownPage(kRoot / "README.md"), checked), ::testing::IsEmpty());
  EXPECT_GT(checked, 10) << "the README names paths (tools/demo.sh, yaml/...); none was recognised";
}

// The pages of docs/ and the schema are held to the same rule.
TEST(DocPaths, EveryPathTheGuideNamesExists) {
  int checked = 0;
  std::vector<std::string> missing;
  for (const MarkdownPage& page : AllPages()) {
    if (page.path.filename() == "README.md" && page.path.parent_path() == kRoot) continue;
    for (std::string& path : MissingPaths(page, checked)) missing.push_back(std::move(path));
  }
  EXPECT_THAT(missing, ::testing::IsEmpty());
  EXPECT_GT(checked, 50);
}

// ---- the shipped devices -------------------------------------------------

// The README's table of shipped devices names every folder of yaml/, each
// with a link to its README.
TEST(DocDevices, TheReadmeTableListsEveryShippedDevice) {
  std::string readme = ReadFile(kRoot / "README.md");
  std::vector<std::string> missing;
  for (const auto& entry : fs::directory_iterator(kRoot / "yaml")) {
    if (!entry.is_directory()) continue;
    std::string folder = "yaml/" + entry.path().filename().string();
    if (readme.find("| [`" + folder + "`](" + folder + "/README.md) |") == std::string::npos) {
      missing.push_back(folder);
    }
  }
  EXPECT_THAT(missing, ::testing::IsEmpty()) << "add a row to README.md's \"Shipped devices\" table";
}

// ---- the CLI reference ----------------------------------------------------

// What `regemu [SUBCOMMAND...] --help` says: the long flags it lists and the
// subcommands under it.
struct HelpText {
  std::set<std::string> flags;
  std::vector<std::string> subcommands;
};

HelpText Help(const std::string& command) {
  RegemuRun run = RunRegemu(command + (command.empty() ? "" : " ") + "--help");
  EXPECT_EQ(run.exit_code, 0) << "regemu " << command << " --help: " << run.output;
  HelpText help;
  // An option line starts with its names ("  -o,--output TEXT ..."); the
  // descriptions may mention other tools' flags (intel_reg --mmio).
  static const std::regex subcommand_line(R"(^\s+([a-z][a-z0-9-]*)\s)");
  static const std::regex option_names(R"(^\s+(-[A-Za-z],)?(--[a-z][a-z0-9-]*))");
  std::istringstream lines(run.output);
  std::string line;
  bool in_subcommands = false;
  while (std::getline(lines, line)) {
    std::string lower = line;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.rfind("subcommands:", 0) == 0) {
      in_subcommands = true;
      continue;
    }
    if (in_subcommands) {
      std::smatch name;
      if (std::regex_search(line, name, subcommand_line)) {
        help.subcommands.push_back(name[1]);
        continue;
      }
      if (line.empty() || line[0] != ' ') in_subcommands = false;
    }
    std::smatch option;
    if (std::regex_search(line, option, option_names)) help.flags.insert(option[2]);
  }
  help.flags.erase("--help");
  return help;
}

// The part of docs/cli.md under `## \`regemu NAME\``, up to the next `## `.
std::map<std::string, std::string> CliSections() {
  std::map<std::string, std::string> sections;
  std::istringstream lines(ReadFile(kRoot / "docs/cli.md"));
  std::string line;
  std::string current;
  static const std::regex heading(R"(^## `regemu ([a-z]+)`)");
  while (std::getline(lines, line)) {
    std::smatch name;
    if (std::regex_search(line, name, heading)) {
      current = name[1];
      continue;
    }
    if (line.rfind("## ", 0) == 0) current.clear();
    if (!current.empty()) sections[current] += line + "\n";
  }
  return sections;
}

std::set<std::string> FlagsMentioned(const std::string& text) {
  std::set<std::string> flags;
  static const std::regex flag(R"((^|[^a-z0-9-])(--[a-z][a-z0-9-]*))");
  for (std::sregex_iterator it(text.begin(), text.end(), flag), end; it != end; ++it) flags.insert((*it)[2]);
  return flags;
}

TEST(CliReference, EverySubcommandHasASectionAndEveryFlagIsDocumented) {
  HelpText top = Help("");
  ASSERT_GE(top.subcommands.size(), 10u) << "regemu --help lists fewer subcommands than expected: parsing broke?";
  std::map<std::string, std::string> sections = CliSections();
  for (const std::string& subcommand : top.subcommands) {
    SCOPED_TRACE("regemu " + subcommand);
    auto section = sections.find(subcommand);
    if (section == sections.end()) {
      ADD_FAILURE() << "docs/cli.md has no section ## `regemu " << subcommand << "`";
      continue;
    }
    HelpText help = Help(subcommand);
    std::set<std::string> flags = help.flags;
    for (const std::string& nested : help.subcommands) {
      EXPECT_THAT(section->second, ::testing::HasSubstr("regemu " + subcommand + " " + nested));
      flags.merge(Help(subcommand + " " + nested).flags);
    }
    std::set<std::string> documented = FlagsMentioned(section->second);
    for (const std::string& flag : flags) {
      EXPECT_TRUE(documented.contains(flag)) << flag << " (in --help) is not mentioned in its section";
    }
    for (const std::string& flag : documented) {
      EXPECT_TRUE(flags.contains(flag) || top.flags.contains(flag))
          << flag << " is documented but `regemu " << subcommand << " --help` lists no such flag";
    }
  }
  for (const auto& [name, text] : sections) {
    EXPECT_THAT(top.subcommands, ::testing::Contains(name)) << "docs/cli.md documents `regemu " << name
                                                            << "`, which regemu --help does not list";
  }
}

// ---- code blocks ------------------------------------------------------------

// Splits shell text into commands: `\` continues a line, `#` starts a
// comment, `&&`, `;` and `|` separate commands.
std::vector<std::string> ShellCommands(const std::string& text) {
  std::string joined = std::regex_replace(text, kLineContinuation, " ");
  static const std::regex separator(R"(&&|;| \| )");
  std::vector<std::string> commands;
  std::istringstream lines(joined);
  std::string line;
  while (std::getline(lines, line)) {
    line = line.substr(0, line.find(" #"));
    if (line.rfind('#', 0) == 0) continue;
    for (std::sregex_token_iterator it(line.begin(), line.end(), separator, -1), end; it != end;
         ++it) {
      commands.push_back(*it);
    }
  }
  return commands;
}

// A command line that runs regemu names one of its subcommands, and only
// flags that subcommand (or regemu itself) has. Other commands pass.
class CommandChecker {
 public:
  std::string Check(const std::string& command) {
    std::istringstream words(command);
    std::vector<std::string> tokens;
    for (std::string word; words >> word;) tokens.push_back(word);
    if (tokens.empty() || fs::path(tokens[0]).filename() != "regemu") return "";
    size_t i = 1;
    while (i + 1 < tokens.size() && tokens[i] == "--plugin") i += 2;
    if (i >= tokens.size()) return "";
    if (tokens[i].rfind('-', 0) == 0) return "";  // regemu --help and the like: no subcommand
    std::string subcommand = tokens[i];
    const std::vector<std::string>& known = Top().subcommands;
    if (std::find(known.begin(), known.end(), subcommand) == known.end()) {
      return "`regemu " + subcommand + "` is not a subcommand";
    }
    const HelpText& help = HelpOf(subcommand);
    std::set<std::string> flags = help.flags;
    if (i + 1 < tokens.size() && std::find(help.subcommands.begin(), help.subcommands.end(), tokens[i + 1]) !=
                                     help.subcommands.end()) {
      flags.merge(std::set<std::string>(HelpOf(subcommand + " " + tokens[i + 1]).flags));
    }
    for (const std::string& flag : FlagsMentioned(command)) {
      if (!flags.contains(flag) && !Top().flags.contains(flag) && flag != "--help") {
        return "`regemu " + subcommand + "` has no flag " + flag;
      }
    }
    return "";
  }

 private:
  const HelpText& Top() { return HelpOf(""); }
  const HelpText& HelpOf(const std::string& command) {
    auto known = help_.find(command);
    if (known == help_.end()) known = help_.emplace(command, Help(command)).first;
    return known->second;
  }
  std::map<std::string, HelpText> help_;
};

// `$ COMMAND` lines of a console block, with the output that follows each.
struct ConsoleStep {
  std::string command;
  std::string output;
};

std::vector<ConsoleStep> ConsoleSteps(const std::string& text) {
  std::vector<ConsoleStep> steps;
  std::istringstream lines(text);
  std::string line;
  bool continued = false;
  while (std::getline(lines, line)) {
    if (line.rfind("$ ", 0) == 0) {
      steps.push_back({line.substr(2), ""});
    } else if (continued && !steps.empty()) {
      steps.back().command += "\n" + line;
    } else if (!steps.empty()) {
      steps.back().output += line + "\n";
    }
    continued = !line.empty() && line.back() == '\\';
  }
  return steps;
}

std::string CheckFileBlock(const CodeBlock& block, const std::string& mode, const std::string& path) {
  if (!fs::is_regular_file(kRoot / path)) return mode + "=" + path + ": no such file";
  std::string file = ReadFile(kRoot / path);
  if (mode == "file") {
    return file == block.text ? "" : "differs from " + path + " (file=: the whole file)";
  }
  return ("\n" + file).find("\n" + block.text) != std::string::npos
             ? ""
             : "is not consecutive whole lines of " + path + " (excerpt=)";
}

// A yaml block with no file: a whole database, loaded and checked.
std::string CheckDatabaseBlock(const CodeBlock& block, const std::string& where) {
  fs::path folder = fs::temp_directory_path() / ("regemu-doc-block-" + std::to_string(getpid()));
  fs::create_directories(folder);
  std::ofstream(folder / "device.yaml") << block.text;
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(folder);
  fs::remove_all(folder);
  if (!loaded.diagnostics.has_errors()) return "";
  return "a database that does not load clean (" + std::to_string(loaded.diagnostics.error_count()) +
         " errors); mark it file=/excerpt= if it is a piece of one (" + where + ")";
}

// Every block of every page is one of: `LANG file=PATH` (the whole file),
// `LANG excerpt=PATH` (consecutive lines of it), a `yaml` database,
// `sh` commands, or a `console` session (`$ ` commands; with `run`, the
// output shown is what the command prints today).
// With `run_outputs`, only the console blocks marked `run` are looked at,
// and their commands run; without, every block is checked but nothing runs.
std::vector<std::string> BlockProblems(bool run_outputs, int& blocks) {
  CommandChecker commands;
  std::vector<std::string> problems;
  for (const MarkdownPage& page : AllPages()) {
    std::string name = fs::relative(page.path, kRoot).string();
    if (name == "yaml/README.md") continue;  // the schema's fragments, not pages of docs/
    for (const CodeBlock& block : page.blocks) {
      bool marked_run = block.language == "console" && block.info.find(" run") != std::string::npos;
      if (run_outputs && !marked_run) continue;
      ++blocks;
      std::string where = Where(page, block.line);
      std::smatch marker;
      std::string problem;
      if (std::regex_search(block.info, marker, kFileMarker)) {
        problem = CheckFileBlock(block, marker[1], marker[2]);
      } else if (block.language == "yaml") {
        problem = CheckDatabaseBlock(block, where);
      } else if (block.language == "sh") {
        for (const std::string& command : ShellCommands(block.text)) {
          if (problem.empty()) problem = commands.Check(command);
        }
      } else if (block.language == "console") {
        std::vector<ConsoleStep> steps = ConsoleSteps(block.text);
        if (steps.empty()) problem = "a console block with no `$ ` command";
        for (const ConsoleStep& step : steps) {
          std::string command = std::regex_replace(step.command, kLineContinuation, " ");
          if (problem.empty()) problem = commands.Check(command);
          if (problem.empty() && run_outputs) {
            RegemuRun run = RunRegemu(command.substr(command.find(' ') + 1));
            if (run.output != step.output) problem = "`" + command + "` prints today:\n" + run.output;
          }
        }
      } else {
        problem = "an unchecked block (```" + block.info +
                  "): mark it file=PATH or excerpt=PATH, or make it yaml, sh or console";
      }
      if (!problem.empty()) problems.push_back(where + ": " + problem);
    }
  }
  return problems;
}

TEST(DocCodeBlocks, EveryBlockIsAFileADatabaseOrRealCommands) {
  int blocks = 0;
  EXPECT_THAT(BlockProblems(/*run_outputs=*/false, blocks), ::testing::IsEmpty());
  EXPECT_GT(blocks, 20);
}

// The README's picture and the captures and decode examples are real runs:
// the output shown is what regemu prints today.
TEST(DocCodeBlocks, ConsoleRunBlocksShowWhatRegemuPrints) {
  int blocks = 0;
  EXPECT_THAT(BlockProblems(/*run_outputs=*/true, blocks), ::testing::IsEmpty());
  EXPECT_GE(blocks, 3);
}

// The checks above must be able to fail: a block naming a flag regemu does
// not have, and an excerpt that is not in its file, are caught.
TEST(DocCodeBlocks, TheChecksCatchWhatTheyAreFor) {
  CommandChecker commands;
  EXPECT_EQ(commands.Check("regemu check --json yaml/icl"), "");
  EXPECT_THAT(commands.Check("regemu check --jsn yaml/icl"), ::testing::HasSubstr("no flag --jsn"));
  EXPECT_THAT(commands.Check("regemu frobnicate yaml/icl"), ::testing::HasSubstr("not a subcommand"));
  EXPECT_EQ(commands.Check("regemu coverage merge -o - cov/"), "");
  EXPECT_EQ(commands.Check("cmake --preset default"), "");
  CodeBlock block{1, "yaml excerpt=docs/own-device/my_nvme/ready.yaml", "yaml", "      - name: enable\n"};
  EXPECT_EQ(CheckFileBlock(block, "excerpt", "docs/own-device/my_nvme/ready.yaml"), "");
  block.text = "      - name: enabled\n";
  EXPECT_NE(CheckFileBlock(block, "excerpt", "docs/own-device/my_nvme/ready.yaml"), "");
  EXPECT_EQ(HeadingAnchor("`regemu doc`: register maps"), "regemu-doc-register-maps");

  CodeBlock database{1, "yaml", "yaml",
                     "device: tiny\n"
                     "spaces:\n"
                     "  - {name: mmio, kind: mmio, size: 0x1000}\n"
                     "registers:\n"
                     "  - {name: CTRL, space: mmio, offset: 0x0}\n"};
  EXPECT_EQ(CheckDatabaseBlock(database, "inline"), "");
  database.text = std::regex_replace(database.text, std::regex("0x0\\}"), "0x2000}");  // past the space's end
  EXPECT_THAT(CheckDatabaseBlock(database, "inline"), ::testing::HasSubstr("does not load clean"));
}

}  // namespace
}  // namespace regemu::doc_test
