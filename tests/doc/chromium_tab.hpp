#pragma once
// One browser tab in a headless Chromium of its own: what a test does to a
// page as a person would (open it, type, press keys, look at it) and what it
// asks of the page's JavaScript. Every wait has a timeout and throws
// std::runtime_error saying what did not happen; the destructor ends
// Chromium whatever state it is in.
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cdp_client.hpp"
#include "chromium_process.hpp"

namespace regemu::doc_test {

class ChromiumTab {
 public:
  // Starts CHROMIUM (FindChromium()) and opens a tab on about:blank with
  // the Page, Runtime and Log domains on.
  explicit ChromiumTab(const std::filesystem::path& chromium);

  // Opens URL and waits for its load event. Throws when the navigation
  // fails (a missing file) or the page does not load in time.
  void Navigate(const std::string& url);

  // The value of a JavaScript expression (a promise is awaited). Throws with
  // the exception's text when it throws.
  nlohmann::json Evaluate(const std::string& expression);

  // Evaluates CONDITION until it is true, while the page may be navigating
  // (an evaluation that fails because the document is being replaced is
  // retried). Throws "timed out waiting for WHAT" otherwise.
  static constexpr std::chrono::milliseconds kConditionTimeout{20'000};
  void WaitUntil(const std::string& condition, const std::string& what,
                 std::chrono::milliseconds timeout = kConditionTimeout);

  // Types TEXT into the focused element (one input event, as an IME would).
  void InsertText(const std::string& text);
  // Presses and releases a key that has no text: "Backspace", "Enter", ...
  void PressKey(const std::string& key);

  // A PNG of the whole page (up to a height limit) written to PATH.
  void Screenshot(const std::filesystem::path& path);

  // Console errors, uncaught exceptions and failed loads since the last
  // call, each as one line "[kind] text (url:line)". Reads what Chromium
  // has sent so far first, so errors printed just after load are in.
  std::vector<std::string> TakeConsoleErrors();

  pid_t browser_pid() const { return process_.pid(); }

 private:
  nlohmann::json Call(const std::string& method, const nlohmann::json& params = nlohmann::json::object());
  void NoteConsoleError(const nlohmann::json& event);

  ChromiumProcess process_;
  CdpClient cdp_;
  std::string session_;
  std::vector<std::string> console_errors_;
};

}  // namespace regemu::doc_test
