#include "examples/nvme/identify.hpp"

#include <array>
#include <vector>

namespace regemu::nvme {

namespace {

uint64_t Le(const std::vector<uint8_t>& bytes, size_t at, unsigned size) {
  uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

}  // namespace

IdentifyResult IdentifyController(AdminQueue& queue, HostMemory& memory, uint64_t buffer_dma) {
  std::vector<uint8_t> buffer(kIdentifySize, 0);
  memory.Write(buffer_dma, buffer);  // a fresh buffer: nothing left from a previous command

  Command command;
  command.opcode = kOpcodeIdentify;
  command.nsid = 0;
  command.prp1 = buffer_dma;  // 4 KiB, page aligned: no PRP2
  command.cdw10_15[0] = kCnsController;

  IdentifyResult result;
  result.status = queue.Execute(command, result.completion);
  if (result.status != Status::kOk || result.completion.status != 0) return result;

  memory.Read(buffer_dma, buffer);
  result.id.vid = static_cast<uint16_t>(Le(buffer, 0, 2));
  result.id.ssvid = static_cast<uint16_t>(Le(buffer, 2, 2));
  result.id.mdts = buffer[77];
  result.id.ver = static_cast<uint32_t>(Le(buffer, 80, 4));
  result.id.sqes = buffer[512];
  result.id.cqes = buffer[513];
  result.id.nn = static_cast<uint32_t>(Le(buffer, 516, 4));
  return result;
}

}  // namespace regemu::nvme
