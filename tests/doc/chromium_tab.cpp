#include "chromium_tab.hpp"

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "base64.hpp"

namespace regemu::doc_test {

using Json = nlohmann::json;
using namespace std::chrono_literals;

namespace {

// Generous: the machine running the tests may be busy building, and under
// the asan preset the test binary itself is slower (Chromium is not).
constexpr std::chrono::milliseconds kCallTimeout = 30s;
constexpr std::chrono::milliseconds kLoadTimeout = 60s;
// Taller pages are cut: a screenshot is for a person to look at.
constexpr double kMaxScreenshotHeight = 4000;

// "text (url:line)" for a console message or exception, as a person reading
// the test log wants it.
std::string WithPlace(std::string text, const Json& where) {
  std::string url = where.value("url", "");
  if (url.empty()) return text;
  // CDP line numbers count from 0.
  return text + " (" + url + ":" + std::to_string(where.value("lineNumber", 0) + 1) + ")";
}

std::string ArgumentsText(const Json& args) {
  std::string text;
  for (const Json& arg : args) {
    if (!text.empty()) text += " ";
    if (arg.contains("value")) {
      text += arg["value"].is_string() ? arg["value"].get<std::string>() : arg["value"].dump();
    } else {
      text += arg.value("description", arg.value("type", "?"));
    }
  }
  return text;
}

}  // namespace

ChromiumTab::ChromiumTab(const std::filesystem::path& chromium) : process_(chromium), cdp_(process_) {
  cdp_.SetListener([this](const Json& event) { NoteConsoleError(event); });
  Json target = cdp_.Call("Target.createTarget", {{"url", "about:blank"}}, "", kCallTimeout);
  Json attached =
      cdp_.Call("Target.attachToTarget", {{"targetId", target["targetId"]}, {"flatten", true}}, "", kCallTimeout);
  session_ = attached["sessionId"].get<std::string>();
  Call("Page.enable");
  Call("Runtime.enable");
  Call("Log.enable");
}

Json ChromiumTab::Call(const std::string& method, const Json& params) {
  return cdp_.Call(method, params, session_, kCallTimeout);
}

void ChromiumTab::Navigate(const std::string& url) {
  cdp_.DiscardEvents("Page.loadEventFired");
  Json navigated = Call("Page.navigate", {{"url", url}});
  if (navigated.contains("errorText")) {
    throw std::runtime_error("cannot open " + url + ": " + navigated["errorText"].get<std::string>());
  }
  try {
    cdp_.WaitForEvent("Page.loadEventFired", session_, kLoadTimeout);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(url + " did not finish loading: " + e.what());
  }
}

Json ChromiumTab::Evaluate(const std::string& expression) {
  Json answer = Call("Runtime.evaluate", {{"expression", expression}, {"returnByValue", true}, {"awaitPromise", true}});
  if (answer.contains("exceptionDetails")) {
    const Json& details = answer["exceptionDetails"];
    std::string text = details.contains("exception")
                           ? details["exception"].value("description", details.value("text", "?"))
                           : details.value("text", "?");
    throw std::runtime_error("JavaScript threw: " + text + "\n  evaluating: " + expression);
  }
  return answer["result"].value("value", Json());
}

void ChromiumTab::WaitUntil(const std::string& condition, const std::string& what, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::string last_error;
  while (std::chrono::steady_clock::now() < deadline) {
    try {
      if (Evaluate(condition) == Json(true)) return;
      last_error.clear();
    } catch (const std::runtime_error& e) {
      // The document may be in the middle of being replaced.
      last_error = e.what();
    }
    cdp_.Pump(50ms);
  }
  throw std::runtime_error("timed out waiting for " + what + " (" + condition + ")" +
                           (last_error.empty() ? "" : "; last error: " + last_error));
}

void ChromiumTab::InsertText(const std::string& text) { Call("Input.insertText", {{"text", text}}); }

void ChromiumTab::PressKey(const std::string& key) {
  // Windows virtual key codes, which Chromium's editing commands go by.
  static const std::pair<const char*, int> kCodes[] = {{"Backspace", 8}, {"Tab", 9},        {"Enter", 13},
                                                       {"Escape", 27},   {"ArrowDown", 40}, {"ArrowUp", 38}};
  auto code = std::find_if(std::begin(kCodes), std::end(kCodes), [&](const auto& c) { return key == c.first; });
  if (code == std::end(kCodes)) throw std::invalid_argument("PressKey: no key code for " + key);
  Json key_event = {{"key", key}, {"code", key}, {"windowsVirtualKeyCode", code->second}};
  key_event["type"] = "rawKeyDown";
  Call("Input.dispatchKeyEvent", key_event);
  key_event["type"] = "keyUp";
  Call("Input.dispatchKeyEvent", key_event);
}

void ChromiumTab::Screenshot(const std::filesystem::path& path) {
  Json metrics = Call("Page.getLayoutMetrics");
  const Json& size = metrics["cssContentSize"];
  Json clip = {{"x", 0},
               {"y", 0},
               {"width", size["width"].get<double>()},
               {"height", std::min(size["height"].get<double>(), kMaxScreenshotHeight)},
               {"scale", 1}};
  Json shot = Call("Page.captureScreenshot", {{"format", "png"}, {"captureBeyondViewport", true}, {"clip", clip}});
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << Base64Decode(shot["data"].get<std::string>());
}

std::vector<std::string> ChromiumTab::TakeConsoleErrors() {
  // A round trip: what Chromium sent before its answer has been read.
  Evaluate("0");
  return std::exchange(console_errors_, {});
}

void ChromiumTab::NoteConsoleError(const Json& event) {
  if (event.value("sessionId", "") != session_) return;
  const std::string method = event.value("method", "");
  const Json& params = event["params"];
  if (method == "Runtime.consoleAPICalled") {
    std::string type = params.value("type", "");
    if (type != "error" && type != "assert") return;
    Json where = Json::object();
    if (params.contains("stackTrace") && !params["stackTrace"]["callFrames"].empty()) {
      where = params["stackTrace"]["callFrames"][0];
    }
    console_errors_.push_back(WithPlace("[console." + type + "] " + ArgumentsText(params["args"]), where));
  } else if (method == "Runtime.exceptionThrown") {
    const Json& details = params["exceptionDetails"];
    std::string text = details.contains("exception")
                           ? details["exception"].value("description", details.value("text", "?"))
                           : details.value("text", "?");
    console_errors_.push_back(WithPlace("[exception] " + text, details));
  } else if (method == "Log.entryAdded") {
    const Json& entry = params["entry"];
    if (entry.value("level", "") != "error") return;
    console_errors_.push_back(WithPlace("[" + entry.value("source", "log") + "] " + entry.value("text", ""), entry));
  }
}

}  // namespace regemu::doc_test
