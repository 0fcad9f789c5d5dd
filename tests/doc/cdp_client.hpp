#pragma once
// The Chrome DevTools Protocol over a ChromiumProcess's pipe: commands with
// ids and their answers, events kept in arrival order until someone waits
// for them. With flattened sessions (Target.attachToTarget flatten: true) a
// page's commands and events carry its sessionId; browser-level ones none.
#include <chrono>
#include <deque>
#include <functional>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "chromium_process.hpp"

namespace regemu::doc_test {

class CdpClient {
 public:
  using Json = nlohmann::json;
  using Listener = std::function<void(const Json& event)>;

  explicit CdpClient(ChromiumProcess& process) : process_(process) {}

  // Sends METHOD with PARAMS to SESSION ("" = the browser) and returns the
  // answer's result. Throws with the method's name when Chromium answers an
  // error or does not answer within the timeout.
  Json Call(const std::string& method, const Json& params, const std::string& session,
            std::chrono::milliseconds timeout);

  // The params of the first event METHOD of SESSION, waiting for it when it
  // has not arrived yet. Throws when it does not arrive within the timeout.
  Json WaitForEvent(const std::string& method, const std::string& session, std::chrono::milliseconds timeout);

  // Forgets the events METHOD that have arrived, so that a later wait sees
  // only new ones (a load event of the previous page must not end the wait
  // for the next).
  void DiscardEvents(const std::string& method);

  // Reads and files whatever arrives for a while: lets late events (console
  // errors printed after load) reach the listener.
  void Pump(std::chrono::milliseconds duration);

  // Called with each event as it arrives, before it is queued.
  void SetListener(Listener listener) { listener_ = std::move(listener); }

 private:
  // Reads one message; an event is handed to the listener and queued, an
  // answer is returned. nullopt for an event, or when the deadline passed.
  std::optional<Json> ReadAnswer(std::chrono::steady_clock::time_point deadline);

  ChromiumProcess& process_;
  int next_id_ = 1;
  std::deque<Json> events_;
  Listener listener_;
};

}  // namespace regemu::doc_test
