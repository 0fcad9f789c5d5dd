#pragma once
// The fixture of the browser tests: a headless Chromium tab (the test is
// skipped, saying how to install it, only when Chromium is not installed), a
// scratch folder for `regemu doc`'s output, and the checks every page gets.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "chromium_tab.hpp"
#include "doc_test_support.hpp"

namespace regemu::doc_test {

class DocBrowserTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::path chromium = FindChromium();
    if (chromium.empty()) {
      GTEST_SKIP() << "Chromium is not installed (looked for $REGEMU_CHROMIUM, then /usr/bin/chromium): "
                      "run tools/setup.sh, or apt-get install chromium, to run the browser tests";
    }
    // A parameterised test's name has a '/' ("Test/icl"): one folder, not two.
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(test.begin(), test.end(), '/', '.');
    scratch_ = std::filesystem::temp_directory_path() / ("regemu-doc-" + test + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(scratch_);
    std::filesystem::create_directories(scratch_);
    tab_ = std::make_unique<ChromiumTab>(chromium);
  }

  void TearDown() override {
    tab_.reset();  // ends Chromium before its pages go
    if (!scratch_.empty()) std::filesystem::remove_all(scratch_);
  }

  // `regemu doc DB -o <scratch>/NAME`; the folder written.
  std::filesystem::path Generate(const std::string& db, const std::string& name) {
    std::filesystem::path site = scratch_ / name;
    last_generation_ = RunRegemu("doc " + db + " -o '" + site.string() + "'");
    if (last_generation_.exit_code != 0) {
      throw std::runtime_error("regemu doc " + db + " exited " + std::to_string(last_generation_.exit_code) + ":\n" +
                               last_generation_.output);
    }
    return site;
  }

  // Opens PAGE (a path relative to SITE, with an optional #fragment).
  void Open(const std::filesystem::path& site, const std::string& page) { tab_->Navigate(FileUrl(site) + "/" + page); }

  // The page just opened: no console error, no exception, no failed load;
  // every link, stylesheet and script names a file that exists, every
  // #anchor an element of its page, and nothing comes from the network
  // (the pages must work offline, from file://).
  void ExpectPageIsSound(const std::string& page) {
    EXPECT_THAT(tab_->TakeConsoleErrors(), ::testing::IsEmpty()) << "console errors on " << page;
    // getAttribute rather than .href: inside an SVG, .href is not a string.
    auto urls = tab_->Evaluate(
        "[...document.querySelectorAll('[href], [src]')]"
        ".map(e => new URL(e.getAttribute('href') ?? e.getAttribute('src'), document.baseURI).href)");
    for (const auto& url : urls) {
      std::string text = url.get<std::string>();
      std::filesystem::path file = FileFromUrl(text);
      if (file.empty()) {
        ADD_FAILURE() << page << " refers to something outside its folder: " << text;
      } else if (!std::filesystem::exists(file)) {
        ADD_FAILURE() << page << " links to a missing file: " << text;
      } else if (size_t hash = text.find('#'); hash != std::string::npos && hash + 1 < text.size()) {
        ExpectAnchor(page, file, text.substr(hash + 1));
      }
    }
  }

  // An #anchor of a link: an element of the open page when the link points
  // into it (it may have been made by a script), else an id in the file.
  void ExpectAnchor(const std::string& page, const std::filesystem::path& file, const std::string& anchor) {
    std::filesystem::path here = FileFromUrl(tab_->Evaluate("location.href").get<std::string>());
    if (std::filesystem::equivalent(here, file)) {
      EXPECT_EQ(
          tab_->Evaluate("document.getElementById(decodeURIComponent(" + nlohmann::json(anchor).dump() + ")) !== null"),
          true)
          << page << " links to #" << anchor << ", which it does not have";
    } else {
      std::ifstream in(file);
      std::stringstream text;
      text << in.rdbuf();
      EXPECT_NE(text.str().find("id=\"" + anchor + "\""), std::string::npos)
          << page << " links to " << file.filename().string() << "#" << anchor << ", which that page does not have";
    }
  }

  // Where screenshots are kept after the test, for a person to look at.
  std::filesystem::path Artifact(const std::string& file) {
    std::filesystem::path path = std::filesystem::path(REGEMU_DOC_ARTIFACTS) / file;
    return path;
  }

  std::filesystem::path scratch_;
  std::unique_ptr<ChromiumTab> tab_;
  RegemuRun last_generation_;
};

}  // namespace regemu::doc_test
