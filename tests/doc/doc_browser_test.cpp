// `regemu doc`'s pages in a real browser, as a person uses them: they load
// without a console error, their links lead somewhere, the search filters as
// one types, a register's picture has one box per field, a deep link lands
// on the register, and screenshots are kept for a person to look at.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "doc_browser_fixture.hpp"

namespace regemu::doc_test {
namespace {

namespace fs = std::filesystem;
using ::testing::Each;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;
using ::testing::UnorderedElementsAreArray;

// N names spread evenly over the list (first and last included): a fixed
// sample, so that a failure is reproduced by running the test again.
std::vector<std::string> Spread(const std::vector<std::string>& names, size_t n) {
  std::vector<std::string> picked;
  for (size_t i = 0; i < n && !names.empty(); ++i) picked.push_back(names[i * (names.size() - 1) / (n - 1)]);
  return picked;
}

std::vector<std::string> Strings(const nlohmann::json& array) { return array.get<std::vector<std::string>>(); }

std::string Upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

// The pages of one folder of the site (s/ or b/), as the index links them
// and as they are on disk: the two must agree.
std::vector<std::string> LinkedPages(ChromiumTab& tab, const std::string& list_id) {
  return Strings(tab.Evaluate("[...document.querySelectorAll('#" + list_id + " a')].map(a => a.getAttribute('href'))"));
}
std::vector<std::string> PagesOnDisk(const fs::path& folder, const std::string& prefix) {
  std::vector<std::string> pages;
  for (const auto& entry : fs::directory_iterator(folder)) pages.push_back(prefix + entry.path().filename().string());
  return pages;
}

class DocPagesTest : public DocBrowserTest, public ::testing::WithParamInterface<const char*> {};

TEST_P(DocPagesTest, EveryKindOfPageLoadsWithoutConsoleErrorsOrBrokenLinks) {
  const std::string db = GetParam();
  fs::path site = Generate(db, "site");
  Open(site, "index.html");
  ExpectPageIsSound("index.html");

  std::vector<std::string> spaces = LinkedPages(*tab_, "spaces");
  std::vector<std::string> behaviours = LinkedPages(*tab_, "behaviours");
  EXPECT_THAT(spaces, UnorderedElementsAreArray(PagesOnDisk(site / "s", "s/"))) << "index's #spaces vs s/";
  if (fs::exists(site / "b")) {
    EXPECT_THAT(behaviours, UnorderedElementsAreArray(PagesOnDisk(site / "b", "b/"))) << "index's #behaviours vs b/";
  }

  std::vector<std::string> pages = spaces;
  pages.insert(pages.end(), behaviours.begin(), behaviours.end());
  for (const std::string& name : Spread(RegisterNames(db), 8)) pages.push_back("r/" + name + ".html");
  for (const std::string& page : pages) {
    SCOPED_TRACE(db + " " + page);
    Open(site, page);
    ExpectPageIsSound(page);
  }
}

INSTANTIATE_TEST_SUITE_P(ShippedDatabases, DocPagesTest, ::testing::Values("yaml/icl", "yaml/hsw"),
                         [](const auto& param_info) { return std::string(param_info.param).substr(5); });

// An imported description: the RP2040's SVD converted at build time, with
// the overlay that gives its TIMER behaviour (tests/convert), so the pages
// of a vendor's thousand registers and of an overlay's behaviours load too.
INSTANTIATE_TEST_SUITE_P(ConvertedSvd, DocPagesTest, ::testing::Values(REGEMU_RP2040_TIMER_DB),
                         [](const auto&) { return std::string("rp2040_timer_overlay"); });

class DocBrowserIclTest : public DocBrowserTest {
 protected:
  void SetUp() override {
    DocBrowserTest::SetUp();
    if (IsSkipped()) return;
    site_ = Generate("yaml/icl", "icl");
  }

  // The data-name of every row the register list shows.
  std::vector<std::string> ShownNames() {
    return Strings(tab_->Evaluate("[...document.querySelectorAll('#register-list li')].map(li => li.dataset.name)"));
  }
  std::string MatchCount() { return tab_->Evaluate("document.getElementById('match-count').textContent"); }

  fs::path site_;
};

TEST_F(DocBrowserIclTest, SearchFiltersAsYouTypeAndClearingBringsEveryRegisterBack) {
  const std::vector<std::string> all = RegisterNames("yaml/icl");
  Open(site_, "index.html");
  const size_t shown_unfiltered = ShownNames().size();
  EXPECT_THAT(MatchCount(), StartsWith(std::to_string(all.size()) + " registers"));
  EXPECT_GT(shown_unfiltered, 0u);

  tab_->Evaluate("document.getElementById('search').focus()");
  std::string typed;
  for (char c : std::string("PCI")) {
    typed += c;
    tab_->InsertText(std::string(1, c));
    std::vector<std::string> expected;
    std::copy_if(all.begin(), all.end(), std::back_inserter(expected),
                 [&](const std::string& name) { return Upper(name).find(typed) != std::string::npos; });
    // Waits rather than reads at once: a page may filter a moment later.
    tab_->WaitUntil("document.getElementById('match-count').textContent.startsWith('" +
                        std::to_string(expected.size()) + " of " + std::to_string(all.size()) + " registers')",
                    "the match count for '" + typed + "'");
    if (expected.size() <= shown_unfiltered) {
      EXPECT_THAT(ShownNames(), UnorderedElementsAreArray(expected)) << "after typing '" << typed << "'";
    } else {
      EXPECT_THAT(ShownNames(), Each(Not(IsEmpty())));
    }
  }
  EXPECT_THAT(ShownNames(), UnorderedElementsAreArray({"PCICMD", "PCISTS2", "PCIECAPHDR", "PCIECAP"}));

  // Clear as a person does: select the text, press Backspace.
  tab_->Evaluate("document.getElementById('search').select()");
  tab_->PressKey("Backspace");
  tab_->WaitUntil(
      "document.getElementById('search').value === '' && "
      "!document.getElementById('match-count').textContent.includes(' of ')",
      "the search box to be cleared");
  EXPECT_THAT(MatchCount(), StartsWith(std::to_string(all.size()) + " registers"));
  EXPECT_EQ(ShownNames().size(), shown_unfiltered);
  EXPECT_THAT(tab_->TakeConsoleErrors(), IsEmpty());
}

// For each register: the picture draws exactly one box per field of the
// database, named as the field, the table one row per field, and bits no
// field covers are drawn as gaps.
TEST_F(DocBrowserIclTest, RegisterPictureHasOneBoxPerFieldAndTheTableOneRow) {
  std::vector<std::string> names = {"PCICMD", "GEN11_GFX_MSTR_IRQ"};
  for (const std::string& name : Spread(RegisterNames("yaml/icl"), 6)) names.push_back(name);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    RegisterFacts facts = ShowRegister("yaml/icl", name);
    Open(site_, "r/" + name + ".html");
    EXPECT_EQ(tab_->Evaluate("document.querySelector('h1')?.id"), name);
    auto boxes =
        Strings(tab_->Evaluate("[...document.querySelectorAll('svg.bitfield g.field')].map(g => g.dataset.field)"));
    auto rows = Strings(tab_->Evaluate(
        "[...document.querySelectorAll('table.fields tr.field-row')].map(tr => tr.id.replace(/^field-/, ''))"));
    EXPECT_THAT(boxes, UnorderedElementsAreArray(facts.fields)) << "svg.bitfield g.field of " << name;
    EXPECT_THAT(rows, UnorderedElementsAreArray(facts.fields)) << "table.fields tr.field-row of " << name;
    int gaps = tab_->Evaluate("document.querySelectorAll('svg.bitfield g.gap').length");
    if (facts.covered_bits < facts.width) {
      EXPECT_GT(gaps, 0) << name << " has bits no field covers, drawn as no gap";
    } else {
      EXPECT_EQ(gaps, 0) << name << " has every bit in a field, yet gaps are drawn";
    }
    ExpectPageIsSound("r/" + name + ".html");
  }
}

TEST_F(DocBrowserIclTest, DeepLinkToARegisterLandsOnItsPage) {
  tab_->Navigate("about:blank");
  Open(site_, "index.html#PCICMD");
  tab_->WaitUntil("location.pathname.endsWith('/r/PCICMD.html') && document.readyState === 'complete'",
                  "index.html#PCICMD to land on r/PCICMD.html");
  EXPECT_EQ(tab_->Evaluate("document.getElementById('PCICMD')?.tagName"), "H1");
  ExpectPageIsSound("r/PCICMD.html (deep link)");
}

// Screenshots of the pages people look at most, kept for review (ctest
// prints where); they are checked only for being real pictures.
TEST_F(DocBrowserIclTest, ScreenshotsAreKeptForReview) {
  const std::vector<std::pair<std::string, std::string>> shots = {
      {"index.html", "icl-index.png"},
      {"r/PCICMD.html", "icl-PCICMD.png"},
      {"r/GEN11_GFX_MSTR_IRQ.html", "icl-GEN11_GFX_MSTR_IRQ.png"},
      {"b/forcewake.html", "icl-forcewake.png"},
  };
  for (const auto& [page, file] : shots) {
    Open(site_, page);
    ExpectPageIsSound(page);
    fs::path png = Artifact(file);
    tab_->Screenshot(png);
    std::ifstream in(png, std::ios::binary);
    std::string magic(8, '\0');
    in.read(magic.data(), 8);
    EXPECT_EQ(magic, std::string("\x89PNG\r\n\x1a\n", 8)) << png;
    EXPECT_GT(fs::file_size(png), 4096u) << png << " is too small to show anything";
    std::cout << "screenshot of " << page << ": " << png.string() << "\n";
  }
}

}  // namespace
}  // namespace regemu::doc_test
