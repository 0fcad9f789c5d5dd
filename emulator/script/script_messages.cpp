#include "regemu/emulator/script/script_messages.hpp"

#include <vector>

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

// "a message writing 0x21 to 0xfee00000", "a message writing 0x21 (to any address)".
std::string Expected(const ScriptCommand& command) {
  std::string data = command.any_data ? "anything" : regdb::Hex(command.value);
  std::string address = command.any_address ? "any address" : regdb::Hex(command.address);
  return "a message writing " + data + " to " + address;
}

std::string Sent(size_t number, const MessageWrite& message) {
  return "message " + std::to_string(number) + " wrote " + regdb::Hex(message.data) + " to " +
         regdb::Hex(message.address) + " at t=" + std::to_string(message.time_ns) + "ns";
}

}  // namespace

std::string MessageChecks::ExpectMessage(const Device& device, const ScriptCommand& command) {
  std::vector<MessageWrite> messages = device.messages();
  if (checked_ >= messages.size()) {
    return "expected " + Expected(command) + ", but the device sent " +
           (device.message_count() > messages.size()
                ? std::string("more messages than it keeps (DeviceOptions::max_messages)")
                : std::string("no message since the last one checked"));
  }
  const MessageWrite& message = messages[checked_++];
  bool address_matches = command.any_address || message.address == command.address;
  bool data_matches = command.any_data || message.data == command.value;
  if (address_matches && data_matches) return "";
  return "expected " + Expected(command) + ", but message " + std::to_string(checked_) + " wrote " +
         regdb::Hex(message.data) + " to " + regdb::Hex(message.address);
}

std::string MessageChecks::ExpectNone(const Device& device) {
  std::vector<MessageWrite> messages = device.messages();
  size_t count = device.message_count();
  if (checked_ >= count) return "";
  std::string why = "expected no message since the last one checked, but the device sent " +
                    std::to_string(count - checked_) + ":";
  for (size_t i = checked_; i < messages.size(); ++i) why += (i == checked_ ? " " : "; ") + Sent(i + 1, messages[i]);
  if (count > messages.size()) why += "; and more than it keeps (DeviceOptions::max_messages)";
  checked_ = count;
  return why;
}

}  // namespace regemu::emulator
