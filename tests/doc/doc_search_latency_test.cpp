// The index's search stays responsive: every keystroke (filtering the
// register list and laying the page out again) takes under 100 ms, on the
// shipped Ice Lake database and on a generated one of 10,000 registers.
// The numbers are printed; `regemu doc`'s own time on the big database is
// printed but not asserted (bench/ holds it to its budget).
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "doc_browser_fixture.hpp"

namespace regemu::doc_test {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

constexpr double kKeystrokeBudgetMs = 100;

// One keystroke timed inside the page: the search box is put at FROM
// (untimed), then changed to TO as typing does: set the value, dispatch the
// input event, force style and layout by reading a size, read
// performance.now(). A page that filtered later (debounced) would still
// show rows of FROM at that point, so the rows are checked against TO.
constexpr const char* kTimeKeystroke = R"JS(
((from, to) => {
  const input = document.getElementById('search');
  const type = (value) => {
    input.value = value;
    input.dispatchEvent(new Event('input', {bubbles: true}));
    void document.body.offsetHeight;
  };
  type(from);
  const start = performance.now();
  type(to);
  const ms = performance.now() - start;
  const wanted = to.trim().toLowerCase();
  const stale = [...document.querySelectorAll('#register-list li')]
                    .find(li => !li.dataset.name.toLowerCase().includes(wanted));
  return {ms, stale: stale ? stale.dataset.name : ''};
})
)JS";

// The search box's values as QUERY is typed one character at a time and
// deleted again the same way: "P", "PC", "PCI", "PC", "P", "".
std::vector<std::string> Keystrokes(const std::string& query) {
  std::vector<std::string> steps;
  for (size_t i = 1; i <= query.size(); ++i) steps.push_back(query.substr(0, i));
  for (size_t i = query.size(); i-- > 0;) steps.push_back(query.substr(0, i));
  return steps;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0 : values[values.size() / 2];
}

class DocSearchLatencyTest : public DocBrowserTest {
 protected:
  // A keystroke's time is its best of kRounds timings, and of up to
  // kMaxTimings while that is over budget. The machine is shared (builds,
  // other tests at once): a keystroke whose renderer was descheduled times
  // the machine, not the page, and such a delay only ever adds; a page that
  // is slow is slow at every timing.
  static constexpr int kRounds = 3;
  static constexpr int kMaxTimings = 10;

  double TimeKeystroke(const std::string& from, const std::string& to) {
    double best = std::numeric_limits<double>::infinity();
    for (int timing = 0; timing < kMaxTimings && (timing < kRounds || best >= kKeystrokeBudgetMs); ++timing) {
      auto result = tab_->Evaluate(std::string(kTimeKeystroke) + "(" + nlohmann::json(from).dump() + ", " +
                                   nlohmann::json(to).dump() + ")");
      EXPECT_EQ(result["stale"], "") << "after the keystroke from '" << from << "' to '" << to
                                     << "', the list still shows a register that does not match";
      double ms = result["ms"].get<double>();
      best = std::min(best, ms);
      worst_sample_ = std::max(worst_sample_, ms);
    }
    return best;
  }

  // Types each query and deletes it, prints every keystroke's time and the
  // max and median over all of them, and holds each to the budget.
  void ExpectResponsive(const std::string& label, const std::vector<std::string>& queries) {
    std::vector<double> all;
    for (const std::string& query : queries) {
      std::cout << label << " '" << query << "':";
      std::string from;
      for (const std::string& to : Keystrokes(query)) {
        double ms = TimeKeystroke(from, to);
        std::cout << " " << std::fixed << std::setprecision(1) << ms;
        EXPECT_LT(ms, kKeystrokeBudgetMs) << label << ": keystroke from '" << from << "' to '" << to << "'";
        all.push_back(ms);
        from = to;
      }
      std::cout << " ms\n";
    }
    ASSERT_FALSE(all.empty());
    std::cout << label << ": " << all.size() << " keystrokes, max " << std::fixed << std::setprecision(1)
              << *std::max_element(all.begin(), all.end()) << " ms, median " << Median(all) << " ms (budget "
              << kKeystrokeBudgetMs << " ms; each the best of " << kRounds << " timings; worst single timing "
              << worst_sample_ << " ms)\n";
    EXPECT_THAT(tab_->TakeConsoleErrors(), IsEmpty());
  }

  double worst_sample_ = 0;
};

TEST_F(DocSearchLatencyTest, EveryKeystrokeIsQuickOnIceLake) {
  fs::path site = Generate("yaml/icl", "icl");
  Open(site, "index.html");
  ExpectResponsive("icl", {"GEN11_GFX_MSTR_IRQ", "PCI", "FORCEWAKE", "zzz"});
}

TEST_F(DocSearchLatencyTest, EveryKeystrokeIsQuickOnTenThousandRegisters) {
  fs::path site = Generate("'" + std::string(REGEMU_BIG_DATABASE) + "'", "big");
  std::cout << "regemu doc on the 10,000-register database: " << std::fixed << std::setprecision(2)
            << last_generation_.seconds << " s wall (" << REGEMU_BINARY << ")\n  " << last_generation_.output;
  auto start = std::chrono::steady_clock::now();
  Open(site, "index.html");
  std::cout << "index.html of 10,000 registers loaded in "
            << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() << " ms\n";
  ExpectPageIsSound("index.html");
  EXPECT_EQ(tab_->Evaluate("window.REGEMU_REGISTERS?.length"), 10000);
  // A common prefix (thousands of matches), one unit's registers, a block
  // instance, an array's last element, nothing at all, and "_", which every
  // name but a few matches: the list is redrawn in full at each keystroke.
  ExpectResponsive("big", {"RENDER_STATUS1", "DDI17_AUX_DATA3", "GAMMA_LUT_1023", "nothing_matches_this", "_"});
}

}  // namespace
}  // namespace regemu::doc_test
