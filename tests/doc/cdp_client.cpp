#include "cdp_client.hpp"

#include <stdexcept>

namespace regemu::doc_test {

using Clock = std::chrono::steady_clock;

namespace {

std::string Milliseconds(std::chrono::milliseconds timeout) { return std::to_string(timeout.count()) + " ms"; }

}  // namespace

CdpClient::Json CdpClient::Call(const std::string& method, const Json& params, const std::string& session,
                                std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  int id = next_id_++;
  Json message = {{"id", id}, {"method", method}, {"params", params}};
  if (!session.empty()) message["sessionId"] = session;
  process_.Send(message.dump(), deadline);
  while (Clock::now() < deadline) {
    std::optional<Json> answer = ReadAnswer(deadline);
    // Answers with another id belong to commands that timed out earlier.
    if (!answer || answer->value("id", 0) != id) continue;
    if (answer->contains("error")) {
      throw std::runtime_error("CDP " + method + " failed: " + (*answer)["error"].dump());
    }
    return answer->value("result", Json::object());
  }
  throw std::runtime_error("CDP " + method + ": chromium did not answer within " + Milliseconds(timeout));
}

CdpClient::Json CdpClient::WaitForEvent(const std::string& method, const std::string& session,
                                        std::chrono::milliseconds timeout) {
  auto deadline = Clock::now() + timeout;
  for (;;) {
    for (auto it = events_.begin(); it != events_.end(); ++it) {
      if ((*it)["method"] == method && it->value("sessionId", "") == session) {
        Json params = it->value("params", Json::object());
        events_.erase(it);
        return params;
      }
    }
    if (Clock::now() >= deadline) {
      throw std::runtime_error("CDP event " + method + " did not arrive within " + Milliseconds(timeout));
    }
    ReadAnswer(deadline);
  }
}

void CdpClient::DiscardEvents(const std::string& method) {
  std::erase_if(events_, [&](const Json& event) { return event["method"] == method; });
}

void CdpClient::Pump(std::chrono::milliseconds duration) {
  auto deadline = Clock::now() + duration;
  while (Clock::now() < deadline) ReadAnswer(deadline);
}

std::optional<CdpClient::Json> CdpClient::ReadAnswer(Clock::time_point deadline) {
  std::optional<std::string> text = process_.Receive(deadline);
  if (!text) return std::nullopt;
  Json message = Json::parse(*text);
  if (message.contains("id")) return message;
  if (listener_) listener_(message);
  events_.push_back(std::move(message));
  // Nobody waits for most events (console chatter, frame notifications):
  // the oldest go, so that a long test does not pile them up.
  constexpr size_t kMaxQueued = 1000;
  if (events_.size() > kMaxQueued) events_.pop_front();
  return std::nullopt;
}

}  // namespace regemu::doc_test
