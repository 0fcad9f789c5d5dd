#pragma once
// A markdown page read as the doc tests need it: its headings (as the
// anchors GitHub makes of them), its links and backticked spans outside
// code blocks, and its fenced code blocks with their info strings. Not a
// markdown parser: the project's pages use ``` fences, ATX headings and
// inline [text](target) links only, and this reads exactly those.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace regemu::doc_test {

struct CodeBlock {
  int line = 0;           // of the opening fence
  std::string info;       // what follows the ``` ("yaml file=docs/x.yaml")
  std::string language;   // the info string's first word
  std::string text;       // the lines between the fences, each ending in '\n'
};

struct InlineSpan {
  int line = 0;
  std::string text;
};

struct MarkdownPage {
  std::filesystem::path path;
  std::set<std::string> anchors;
  std::vector<InlineSpan> links;      // link targets: "docs/cli.md#regemu-check"
  std::vector<InlineSpan> code_spans; // `...` outside code blocks
  std::vector<CodeBlock> blocks;
};

// GitHub's anchor for a heading: lower case; letters, digits, '-' and '_'
// kept, spaces made '-', everything else dropped.
inline std::string HeadingAnchor(std::string_view heading) {
  std::string anchor;
  for (char c : heading) {
    unsigned char u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || u >= 0x80) {
      anchor += static_cast<char>(std::tolower(u));
    } else if (c == ' ') {
      anchor += '-';
    }
  }
  return anchor;
}

namespace detail {

// Links and code spans of one line of prose. A link inside a code span is
// text, not a link.
inline void ScanProseLine(const std::string& line, int number, MarkdownPage& page) {
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '`') {
      size_t end = line.find('`', i + 1);
      if (end == std::string::npos) return;
      page.code_spans.push_back({number, line.substr(i + 1, end - i - 1)});
      i = end;
    } else if (line[i] == ']' && i + 1 < line.size() && line[i + 1] == '(') {
      size_t end = line.find(')', i + 2);
      if (end == std::string::npos) return;
      page.links.push_back({number, line.substr(i + 2, end - i - 2)});
      i = end;
    }
  }
}

}  // namespace detail

inline MarkdownPage ReadMarkdownPage(const std::filesystem::path& path) {
  MarkdownPage page;
  page.path = path;
  std::ifstream in(path);
  std::string line;
  int number = 0;
  bool inside = false;
  CodeBlock block;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("```", 0) == 0) {
      if (!inside) {
        block = CodeBlock{number, line.substr(3), "", ""};
        block.language = block.info.substr(0, block.info.find(' '));
        inside = true;
      } else {
        page.blocks.push_back(block);
        inside = false;
      }
      continue;
    }
    if (inside) {
      block.text += line + "\n";
      continue;
    }
    if (line.rfind('#', 0) == 0) {
      size_t text = line.find_first_not_of('#');
      if (text != std::string::npos && line[text] == ' ') page.anchors.insert(HeadingAnchor(line.substr(text + 1)));
    }
    detail::ScanProseLine(line, number, page);
  }
  return page;
}

// The tree's files, relative to `root`: the tracked ones (`git ls-files`),
// or without git (an unpacked tarball) every file outside build*/ and
// .git/. A tracked file deleted in the work tree is left out.
inline std::vector<std::filesystem::path> TreeFiles(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::string command = "git -C '" + root.string() + "' ls-files -z 2>/dev/null";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::string name;
    for (int c = fgetc(pipe); c != EOF; c = fgetc(pipe)) {
      if (c != '\0') {
        name.push_back(static_cast<char>(c));
        continue;
      }
      if (fs::is_regular_file(root / name)) files.emplace_back(name);
      name.clear();
    }
    if (pclose(pipe) == 0 && !files.empty()) return files;
    files.clear();
  }
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    if (it->is_directory() && (name == ".git" || name.rfind("build", 0) == 0)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back(fs::relative(it->path(), root));
  }
  return files;
}

// The tree's files named README.md (README.md, yaml/nvme/README.md, ...).
inline std::vector<std::filesystem::path> ReadmePages(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> pages;
  for (const std::filesystem::path& file : TreeFiles(root)) {
    if (file.filename() == "README.md") pages.push_back(file);
  }
  return pages;
}

// Every page the doc tests hold: each README.md of the tree (README.md,
// yaml/README.md, emulator/README.md, yaml/<device>/README.md,
// tools/*/README.md, ...), CONTRIBUTING.md, and every page under docs/, as
// paths relative to `root`, sorted, each once.
inline std::vector<std::filesystem::path> DocumentationPages(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> pages = ReadmePages(root);
  pages.push_back("CONTRIBUTING.md");
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root / "docs")) {
    if (entry.is_regular_file() && entry.path().extension() == ".md") {
      pages.push_back(std::filesystem::relative(entry.path(), root));
    }
  }
  std::sort(pages.begin(), pages.end());
  pages.erase(std::unique(pages.begin(), pages.end()), pages.end());
  return pages;
}

}  // namespace regemu::doc_test
