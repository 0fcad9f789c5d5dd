#pragma once
// The device's messages (MSI memory writes, Device::messages) as a script
// run checks them (script_runner.cpp): expect-msi takes the next message
// not yet checked, expect-no-msi says there is none.

#include <cstddef>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"

namespace regemu::emulator {

class MessageChecks {
 public:
  // expect-msi ADDRESS|* DATA|*: "" when the next unchecked message matches,
  // else why not. The message counts as checked either way.
  std::string ExpectMessage(const Device& device, const ScriptCommand& command);
  // expect-no-msi: "" when no message came since the last one checked, else
  // the ones that did, which then count as checked.
  std::string ExpectNone(const Device& device);

 private:
  size_t checked_ = 0;  // messages already matched by expect-msi or passed over by expect-no-msi
};

}  // namespace regemu::emulator
