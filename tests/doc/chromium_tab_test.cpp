// The browser driver itself, on small hand-written pages: what it reports
// is what a page did, its waits end with an error that says what did not
// happen, and Chromium does not outlive the tab.
#include <signal.h>

#include <cerrno>
#include <fstream>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "doc_browser_fixture.hpp"

namespace regemu::doc_test {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAre;
using namespace std::chrono_literals;

class ChromiumTabTest : public DocBrowserTest {
 protected:
  // Writes a page into the scratch folder and opens it.
  void OpenPage(const std::string& body) {
    std::ofstream(scratch_ / "page.html")
        << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body>" << body << "</body></html>";
    Open(scratch_, "page.html");
  }
};

TEST_F(ChromiumTabTest, ConsoleErrorsExceptionsAndMissingFilesAreEachReportedOnce) {
  OpenPage(
      R"(<script>console.error('logged', 42); console.assert(false, 'asserted'); console.log('not an error');</script>
<script src="missing.js"></script>
<script>throw new Error('thrown');</script>)");
  EXPECT_THAT(tab_->TakeConsoleErrors(),
              UnorderedElementsAre(AllOf(HasSubstr("[console.error] logged 42"), HasSubstr("page.html:")),
                                   HasSubstr("[console.assert] asserted"),
                                   AllOf(HasSubstr("ERR_FILE_NOT_FOUND"), HasSubstr("missing.js")),
                                   AllOf(HasSubstr("[exception]"), HasSubstr("Error: thrown"))));
  EXPECT_THAT(tab_->TakeConsoleErrors(), IsEmpty());
}

TEST_F(ChromiumTabTest, OpeningAMissingPageThrowsNamingIt) {
  try {
    Open(scratch_, "nowhere.html");
    FAIL() << "opening a missing page did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("nowhere.html"), HasSubstr("ERR_FILE_NOT_FOUND")));
  }
}

TEST_F(ChromiumTabTest, AnExceptionInEvaluatedScriptThrowsWithItsText) {
  OpenPage("");
  EXPECT_EQ(tab_->Evaluate("6 * 7"), 42);
  EXPECT_EQ(tab_->Evaluate("Promise.resolve('awaited')"), "awaited");
  try {
    tab_->Evaluate("undefinedFunction()");
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("ReferenceError: undefinedFunction is not defined"));
  }
}

TEST_F(ChromiumTabTest, WaitUntilGivesUpAfterItsTimeoutSayingWhatItWaitedFor) {
  OpenPage("");
  auto start = std::chrono::steady_clock::now();
  try {
    tab_->WaitUntil("false", "a condition that never holds", 300ms);
    FAIL() << "WaitUntil returned";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("timed out waiting for a condition that never holds"));
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

TEST_F(ChromiumTabTest, TypedTextReachesTheFocusedInputAndBackspaceDeletes) {
  OpenPage(R"(<input id="box"><p id="events"></p>
<script>box.addEventListener('input', () => events.textContent += '|' + box.value);</script>)");
  tab_->Evaluate("box.focus()");
  tab_->InsertText("a");
  tab_->InsertText("bc");
  tab_->PressKey("Backspace");
  EXPECT_EQ(tab_->Evaluate("box.value"), "ab");
  EXPECT_EQ(tab_->Evaluate("events.textContent"), "|a|abc|ab");
}

TEST_F(ChromiumTabTest, ScreenshotIsAPng) {
  OpenPage("<h1>picture</h1>");
  std::filesystem::path png = scratch_ / "shot.png";
  tab_->Screenshot(png);
  std::ifstream in(png, std::ios::binary);
  std::string magic(8, '\0');
  in.read(magic.data(), 8);
  EXPECT_EQ(magic, std::string("\x89PNG\r\n\x1a\n", 8));
}

TEST_F(ChromiumTabTest, ChromiumIsGoneOnceTheTabIs) {
  pid_t pid = tab_->browser_pid();
  ASSERT_GT(pid, 0);
  tab_.reset();
  EXPECT_EQ(::kill(pid, 0), -1);
  EXPECT_EQ(errno, ESRCH);
}

TEST_F(ChromiumTabTest, ABrowserThatExitsAtOnceIsAnErrorNotAHang) {
  // /bin/true accepts Chromium's flags, ignores them and exits: the pipe
  // closes before any answer.
  try {
    ChromiumTab tab("/bin/true");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("closed its DevTools pipe"));
  }
}

}  // namespace
}  // namespace regemu::doc_test
