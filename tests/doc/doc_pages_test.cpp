// The documentation held to the code: every README.md of the tree,
// CONTRIBUTING.md and every page under docs/. Links resolve; the paths the
// pages name exist (from the page's folder or the root); the
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

// ---- paths the pages name ----------------------------------------------

// `tools/demo.sh`, `yaml/icl`, `LICENSE`, `controller.yaml`: a backticked
// span is taken for a path of the tree when
//   - its first component is a top-level entry of the source tree (or it
//     is one of the top-level files): it must exist from the root;
//   - or its first component is an entry of the page's own folder
//     (`own-device/` in docs/, `oa.yaml` in yaml/icl/README.md): it must
//     exist from there;
//   - or it is a bare file name of the tree's kinds (`queues.yaml`,
//     `build-kernel.sh`, `nvme_admin.hpp`): it must be a file of the page's
//     folder, or a file of that name somewhere in the tree (a sentence
//     about another folder's file). `.h` and `.c` names are left out: the
//     pages name Linux's files (`i915_reg.h`, `pci.c`) as often as ours.
// Globs must match something. `build/` is made by the build, not kept.
bool LooksLikeAFile(const std::string& text) {
  static const std::regex file_name(
      R"(^[A-Za-z0-9_.-]+\.(yaml|yml|md|cpp|hpp|def|sh|script|cmake|json|py|svd|mmiotrace|patch)$)");
  return std::regex_search(text, file_name);
}

// The file names of the tree (`git ls-files`), for bare file names.
const std::set<std::string>& TreeFileNames() {
  static const std::set<std::string> names = [] {
    std::set<std::string> all;
    for (const fs::path& file : TreeFiles(kRoot)) all.insert(file.filename().string());
    return all;
  }();
  return names;
}

bool GlobMatches(const fs::path& base, const std::string& text) {
  fs::path folder = base / fs::path(text).parent_path();
  std::string pattern = std::regex_replace(fs::path(text).filename().string(), std::regex(R"(\.)"), "\\.");
  pattern = std::regex_replace(pattern, std::regex(R"(\*)"), ".*");
  if (!fs::is_directory(folder)) return false;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (std::regex_match(entry.path().filename().string(), std::regex(pattern))) return true;
  }
  return false;
}

bool ExistsUnder(const fs::path& base, const std::string& text) {
  return text.find('*') == std::string::npos ? fs::exists(base / text) : GlobMatches(base, text);
}

std::vector<std::string> MissingPaths(const MarkdownPage& page, int& checked) {
  static const std::regex path_like(R"(^\.?/?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.*%-]+)*/?$)");
  static const std::regex top_level_page(R"([A-Z]+\.md)");  // CHANGELOG.md
  std::vector<std::string> missing;
  // The page's folder, from the root: "" for README.md, "yaml/nvme" for yaml/nvme/README.md.
  const fs::path folder = fs::relative(page.path, kRoot).parent_path();
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
    bool from_root = top_level_file || under_top_level || looks_like_top_level_file;
    bool from_folder = !folder.empty() && !first.empty() && first != ".." && fs::exists(kRoot / folder / first);
    bool bare_file = text.find('/') == std::string::npos && LooksLikeAFile(text);
    if (!from_root && !from_folder && !bare_file) continue;
    ++checked;
    // A clean clone has nothing beside it: a relative path that leaves the
    // repository (a ../ path) resolves only on the machine that wrote it.
    // (Absolute ones, /proc/self/maps, name the system's own files.)
    fs::path inside = (kRoot / folder / text).lexically_normal().lexically_relative(kRoot.lexically_normal());
    if (fs::path(text).is_relative() && (inside.empty() || *inside.begin() == "..")) {
      missing.push_back(Where(page, span.line) + ": " + text + " is outside the repository");
      continue;
    }
    if (from_root && ExistsUnder(kRoot, text)) continue;
    if (!folder.empty() && ExistsUnder(kRoot / folder, text)) continue;
    if (!from_root && ExistsUnder(kRoot, text)) continue;  // `yaml/icl` style, written from the root
    // A bare file name of a sentence about another folder's file
    // (`behaviour_kinds.def` in emulator/README.md): a file of that name.
    if (bare_file && !from_root && !from_folder && TreeFileNames().contains(text)) continue;
    std::string where = from_root ? "" : folder.empty() ? " (no file of the tree has that name)"
                                                         : " (not in " + folder.string() + "/, no file of the tree has that name)";
    missing.push_back(Where(page, span.line) + ": " + text +
                      (text.find('*') == std::string::npos ? "" : " matches nothing") + where);
  }
  return missing;
}

TEST(DocPaths, EveryPathTheReadmeNamesExists) {
  int checked = 0;
  EXPECT_THAT(MissingPaths(ReadMarkdownPage(kRoot / "README.md"), checked), ::testing::IsEmpty());
  EXPECT_GT(checked, 10) << "the README names paths (tools/demo.sh, yaml/...); none was recognised";
}

// Every other page is held to the same rule: the pages of docs/, the
// schema, CONTRIBUTING.md and every README of the tree, its paths taken
// from its own folder or from the root.
TEST(DocPaths, EveryPathTheOtherPagesNameExists) {
  int checked = 0;
  std::vector<std::string> missing;
  for (const MarkdownPage& page : AllPages()) {
    if (page.path.filename() == "README.md" && page.path.parent_path() == kRoot) continue;
    for (std::string& path : MissingPaths(page, checked)) missing.push_back(std::move(path));
  }
  EXPECT_THAT(missing, ::testing::IsEmpty());
  EXPECT_GT(checked, 50);
}

// Every README of the tree is among the pages held, and a README naming a
// file that is not there fails: yaml/nvme/README.md naming a file of its
// folder, and one of the root, that do not exist.
TEST(DocPaths, EveryReadmeIsHeldAndAMissingFileIsCaught) {
  std::vector<fs::path> pages = DocumentationPages(kRoot);
  for (const char* readme : {"README.md", "emulator/README.md", "yaml/README.md", "yaml/nvme/README.md",
                             "tools/headergen/README.md", "tests/fuzz/README.md"}) {
    EXPECT_THAT(pages, ::testing::Contains(fs::path(readme)));
  }
  EXPECT_GE(pages.size(), 20u + 20u) << "the READMEs and docs/ pages were not found";

  MarkdownPage page = ReadMarkdownPage(kRoot / "yaml/nvme/README.md");
  page.code_spans = {{1, "controller.yaml"}, {2, "tests/scripts/nvme_registers.script"}, {3, "yaml/icl"}};
  int checked = 0;
  EXPECT_THAT(MissingPaths(page, checked), ::testing::IsEmpty());
  EXPECT_EQ(checked, 3);
  page.code_spans = {{1, "controllers.yaml"}, {2, "tests/scripts/nvme_registres.script"}, {3, "queue/"}};
  checked = 0;
  EXPECT_THAT(MissingPaths(page, checked),
              ::testing::ElementsAre(::testing::HasSubstr("controllers.yaml (not in yaml/nvme/"),
                                     ::testing::HasSubstr("tests/scripts/nvme_registres.script")));
  EXPECT_EQ(checked, 2) << "`queue/` names nothing of the tree: not taken for a path";
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

// ---- tables held to the tree ---------------------------------------------

// The rows of a markdown table under `heading` (up to the next heading):
// the first cell of each, backticks dropped.
std::vector<std::string> FirstCells(const std::string& page, const std::string& heading) {
  std::vector<std::string> cells;
  std::istringstream lines(ReadFile(kRoot / page));
  std::string line;
  bool in_section = false;
  while (std::getline(lines, line)) {
    if (line.rfind('#', 0) == 0) {
      in_section = line == heading;
      continue;
    }
    if (!in_section || line.rfind("| ", 0) != 0) continue;
    std::string cell = line.substr(2, line.find(" |", 2) - 2);
    cell.erase(std::remove(cell.begin(), cell.end(), '`'), cell.end());
    cells.push_back(cell);
  }
  return cells;
}

// emulator/README.md's table of behaviour kinds has a row for each kind of
// regdb/behaviour_kinds.def.
TEST(DocTables, TheRuntimeListsEveryBehaviourKind) {
  std::vector<std::string> rows = FirstCells("emulator/README.md", "### Kinds from outside regemu (`behaviour_registry.hpp`)");
  static const std::regex kind_row(R"re(^REGDB_BEHAVIOUR\(\w+, "([a-z0-9-]+)")re");
  std::istringstream lines(ReadFile(kRoot / "regdb/behaviour_kinds.def"));
  std::vector<std::string> kinds;
  for (std::string line; std::getline(lines, line);) {
    std::smatch kind;
    if (std::regex_search(line, kind, kind_row)) kinds.push_back(kind[1]);
  }
  ASSERT_GE(kinds.size(), 13u) << "regdb/behaviour_kinds.def was not read";
  for (const std::string& kind : kinds) {
    EXPECT_THAT(rows, ::testing::Contains(kind)) << "emulator/README.md's kinds table has no row for " << kind;
  }
  for (const std::string& row : rows) {
    if (row == "kind" || row.rfind("---", 0) == 0) continue;
    EXPECT_THAT(kinds, ::testing::Contains(row)) << "emulator/README.md lists a kind the .def does not have";
  }
}

// docs/building.md's layout names every top-level folder and every folder
// of tools/ that exists, and its dependency table every package
// tools/setup.sh installs.
TEST(DocTables, TheLayoutListsEveryFolderAndTheDependenciesEveryPackage) {
  std::vector<std::string> rows = FirstCells("docs/building.md", "## Layout");
  auto listed = [&](const std::string& folder) {
    return std::find(rows.begin(), rows.end(), folder + "/") != rows.end();
  };
  std::vector<std::string> folders;
  for (const fs::path& file : TreeFiles(kRoot)) {
    auto part = file.begin();
    if (std::next(part) == file.end()) continue;  // a top-level file
    folders.push_back(part->string());
    if (*part == "tools" && std::next(part, 2) != file.end()) folders.push_back("tools/" + std::next(part)->string());
  }
  std::sort(folders.begin(), folders.end());
  folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
  ASSERT_GE(folders.size(), 15u);
  for (const std::string& folder : folders) {
    EXPECT_TRUE(listed(folder)) << "docs/building.md's Layout has no row `" << folder << "/`";
  }

  std::string dependencies;
  for (const std::string& row : FirstCells("docs/building.md", "## Dependencies")) dependencies += " " + row + ",";
  std::istringstream setup(ReadFile(kRoot / "tools/setup.sh"));
  std::string line;
  bool in_list = false;
  int packages = 0;
  while (std::getline(setup, line)) {
    if (line.rfind("packages=(", 0) == 0) {
      in_list = true;
      continue;
    }
    if (!in_list) continue;
    if (line.rfind(')', 0) == 0) break;
    std::istringstream words(line.substr(0, line.find('#')));
    for (std::string package; words >> package; ++packages) {
      std::string quoted = std::regex_replace(package, std::regex(R"([.+])"), R"(\$&)");
      EXPECT_TRUE(std::regex_search(dependencies, std::regex("[ ,(]" + quoted + "[ ,)]")))
          << "docs/building.md's dependency table does not say what " << package << " is for";
    }
  }
  EXPECT_GE(packages, 25) << "tools/setup.sh's package list was not read";
}

// ---- the API references -------------------------------------------------

// The names declared by `header`'s lines that match `declaration` (group 1).
std::set<std::string> Declared(const std::string& header, const std::regex& declaration) {
  std::set<std::string> names;
  std::istringstream lines(ReadFile(kRoot / header));
  for (std::string line; std::getline(lines, line);) {
    std::smatch name;
    if (std::regex_search(line, name, declaration)) names.insert(name[1]);
  }
  return names;
}

// docs/c-api.md names every regemu_ function of the C shim's two headers.
TEST(DocApi, TheCApiPageNamesEveryFunction) {
  static const std::regex function(R"(^[a-z].*\b(regemu_[a-z0-9_]+)\()");
  std::set<std::string> functions = Declared("include/regemu/regemu.h", function);
  functions.merge(Declared("include/regemu/iomem.h", function));
  ASSERT_GE(functions.size(), 45u);
  std::string page = ReadFile(kRoot / "docs/c-api.md");
  for (const std::string& name : functions) {
    EXPECT_NE(page.find(name + "("), std::string::npos) << "docs/c-api.md does not give " << name << "'s signature";
  }
}

// docs/kit-reference.md names every public function of the kit's headers
// and of emulator::Device.
TEST(DocApi, TheKitReferenceNamesEveryFunction) {
  // A declaration's name: `Type Name(` at the start of a member or free
  // function line (two-space indented members, or namespace-level ones).
  static const std::regex member(
      R"(^  (?!return\b)(?=[A-Za-z])(?:virtual |static |inline |explicit |constexpr )*[A-Za-z0-9_:<>,*& ]*?[ *&]([A-Z][A-Za-z0-9]*|[a-z_]+)\()");
  static const std::regex free_function(
      R"(^(?!return\b)(?=[A-Za-z])(?:inline |constexpr )*[A-Za-z0-9_:<>,*& ]+?[ *&]([A-Z][A-Za-z0-9]*)\()");
  std::string page = ReadFile(kRoot / "docs/kit-reference.md");
  std::vector<std::string> missing;
  int names = 0;
  auto check = [&](const std::string& header, const std::set<std::string>& declared) {
    for (const std::string& name : declared) {
      if (name == "operator" || name == "return" || name == "if") continue;
      ++names;
      if (page.find(name) == std::string::npos) missing.push_back(header + ": " + name);
    }
  };
  for (const char* header : {"fakes/device_test.hpp", "fakes/matchers.hpp", "fakes/mmio_bus.hpp",
                             "fakes/fake_mmio_bus.hpp", "fakes/mock_mmio_bus.hpp", "fakes/protocol_rules.hpp"}) {
    // Only the public and protected parts of each class.
    std::string text = ReadFile(kRoot / header);
    std::string visible;
    bool hidden = false;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      if (line == " private:") hidden = true;
      if (line == " public:" || line == " protected:" || line.rfind("};", 0) == 0) hidden = false;
      if (!hidden) visible += line + "\n";
    }
    std::set<std::string> declared;
    std::istringstream visible_lines(visible);
    for (std::string line; std::getline(visible_lines, line);) {
      std::smatch name;
      if (line.find("//") != std::string::npos && line.find("//") < line.find('(')) continue;
      if (std::regex_search(line, name, member) || std::regex_search(line, name, free_function)) declared.insert(name[1]);
    }
    check(header, declared);
  }
  // emulator::Device: its public members.
  std::string device = ReadFile(kRoot / "emulator/device.hpp");
  size_t begin = device.find("class Device {");
  size_t end = device.find(" private:", begin);
  ASSERT_NE(begin, std::string::npos);
  std::set<std::string> members;
  std::istringstream lines(device.substr(begin, end - begin));
  for (std::string line; std::getline(lines, line);) {
    std::smatch name;
    if (line.rfind("  //", 0) != 0 && std::regex_search(line, name, member)) members.insert(name[1]);
  }
  check("emulator/device.hpp", members);
  EXPECT_THAT(missing, ::testing::IsEmpty()) << "name each in docs/kit-reference.md, with a line and an example";
  EXPECT_GE(names, 60) << "the kit's headers were not read";
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
