#include "tools/regemu/diff_command.hpp"

#include <filesystem>
#include <ostream>
#include <sstream>

#include <dtl/dtl.hpp>

#include "regemu/emulator/script/script.hpp"
#include "tools/regemu/device_inputs.hpp"
#include "tools/traces/access_sequence.hpp"

namespace regemu::tools {
namespace {

using traces::AccessSequence;
using traces::SequenceLine;

// The first line that is neither blank nor a comment, to tell a script
// from a capture; the stream is rewound.
std::string FirstMeaningfulLine(std::istream& in) {
  std::string line;
  std::string found;
  while (std::getline(in, line)) {
    size_t start = line.find_first_not_of(" \t\r");
    if (start == std::string::npos || line[start] == '#') continue;
    found = line.substr(start);
    break;
  }
  in.clear();
  in.seekg(0);
  return found;
}

std::optional<AccessSequence> ReadSequence(const std::string& path, const traces::SequenceContext& context,
                                           std::ostream& err) {
  auto input = OpenInput(path, "diff", err);
  if (!input) return std::nullopt;
  if (path == "-") {
    err << "regemu diff: read A and B from files (a diff reads each twice to tell scripts from captures)\n";
    return std::nullopt;
  }
  std::string error;
  std::optional<AccessSequence> sequence;
  if (traces::LooksLikeScript(FirstMeaningfulLine(input->stream()))) {
    std::string text;
    if (!ReadScript("regemu diff", path, emulator::ScriptLimits{}.max_bytes, text, err)) return std::nullopt;
    sequence = traces::ScriptSequence(std::move(text), path, context, error);
  } else {
    sequence = traces::CaptureSequence(input->stream(), path, context, error);
  }
  if (!sequence) {
    err << (error.find(": error:") == std::string::npos ? "regemu diff: " : "") << error;
    if (!error.empty() && error.back() != '\n') err << "\n";
    return std::nullopt;
  }
  for (const auto& problem : sequence->problems) {
    err << path << ":" << problem.line << ": error: " << problem.message << " (skipped)\n";
  }
  return sequence;
}

std::string Where(const AccessSequence& sequence, const SequenceLine& line) {
  return "  # " + std::filesystem::path(sequence.name).filename().string() + ":" + std::to_string(line.source_line);
}

void PrintHunks(std::ostream& out, const AccessSequence& a, const AccessSequence& b, int context) {
  dtl::Diff<SequenceLine, std::vector<SequenceLine>> diff(a.lines, b.lines);
  diff.compose();
  // Hunks as `diff -u` groups them, with our own context size.
  auto ses = diff.getSes().getSequence();
  std::vector<size_t> changed;
  for (size_t i = 0; i < ses.size(); ++i) {
    if (ses[i].second.type != dtl::SES_COMMON) changed.push_back(i);
  }
  size_t at = 0;
  while (at < changed.size()) {
    size_t first = changed[at] >= static_cast<size_t>(context) ? changed[at] - static_cast<size_t>(context) : 0;
    size_t last = changed[at];
    while (at < changed.size() && changed[at] <= last + 2 * static_cast<size_t>(context) + 1) last = changed[at++];
    last = std::min(ses.size() - 1, last + static_cast<size_t>(context));
    long long a_start = 0, b_start = 0, a_count = 0, b_count = 0;
    for (size_t i = first; i <= last; ++i) {
      const auto& info = ses[i].second;
      if (info.type != dtl::SES_ADD) {
        if (a_count++ == 0) a_start = info.beforeIdx;
      }
      if (info.type != dtl::SES_DELETE) {
        if (b_count++ == 0) b_start = info.afterIdx;
      }
    }
    out << "@@ -" << a_start << "," << a_count << " +" << b_start << "," << b_count << " @@\n";
    for (size_t i = first; i <= last; ++i) {
      const auto& [line, info] = ses[i];
      switch (info.type) {
        case dtl::SES_COMMON: out << " " << line.text << "\n"; break;
        case dtl::SES_DELETE: out << "-" << line.text << Where(a, line) << "\n"; break;
        case dtl::SES_ADD: out << "+" << line.text << Where(b, line) << "\n"; break;
      }
    }
  }
}

}  // namespace

int RunDiffCommand(const DiffCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto parsed = ParseCaptureOptions(options.capture_options, "diff", err);
  if (!parsed) return 2;
  if (options.context < 0) {
    err << "regemu diff: --context must be 0 or more\n";
    return 2;
  }
  CompiledDatabase loaded;
  traces::SequenceContext context;
  context.mappings = parsed->mappings;
  context.device = parsed->device;
  context.format = parsed->format;
  if (!options.database.empty()) {
    if (!DatabaseExists("regemu diff", options.database, err)) return 2;
    loaded = CompileDatabase(options.database, err);
    if (!loaded.model) return 2;
    context.db = &loaded.loaded.database;
    context.model = loaded.model.get();
  }
  auto a = ReadSequence(options.a, context, err);
  if (!a) return 2;
  auto b = ReadSequence(options.b, context, err);
  if (!b) return 2;

  bool same = a->lines == b->lines;
  out << "--- " << a->name << " (" << a->kind << ", " << a->accesses << " accesses, " << a->lines.size() << " steps)\n";
  out << "+++ " << b->name << " (" << b->kind << ", " << b->accesses << " accesses, " << b->lines.size() << " steps)\n";
  if (same) {
    out << "the same steps\n";
    return 0;
  }
  PrintHunks(out, *a, *b, options.context);
  return 1;
}

}  // namespace regemu::tools
