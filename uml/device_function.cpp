#include "regemu/uml/device_function.hpp"

#include <algorithm>
#include <stdexcept>

#include "regemu/regdb/numbers.hpp"
#include "regemu/uml/vhost/guest_memory.hpp"

namespace regemu::uml {
namespace {

constexpr size_t kMaxProtocolErrors = 64;
constexpr unsigned kBars = 6;  // PCI type-0 header: BAR0-BAR5

}  // namespace

DeviceFunction::DeviceFunction(emulator::Device& device) : device_(device), bars_(kBars) {
  const auto& spaces = device.model().spaces();
  bool has_config = false;
  for (emulator::SpaceId id = 0; id < spaces.size(); ++id) {
    const auto& space = spaces[id];
    if (space.kind == regdb::SpaceKind::kPciConfig && !has_config) {
      config_ = id;
      has_config = true;
    }
    if (space.pci_bar && *space.pci_bar < kBars) {
      bars_[*space.pci_bar] = id;
    } else if (space.dma) {
      dma_spaces_.push_back(id);
    }
  }
  if (!has_config) {
    throw std::invalid_argument("the database has no pci-config space: only a PCI function can sit on virt-pci");
  }
}

void DeviceFunction::Observe(emulator::DeviceOptions& options, std::vector<InterruptOut>& sink) {
  options.on_message = [&sink](const emulator::MessageWrite& message) {
    // virt-pci programs every vector's address as 0xa0000 and its data as
    // the Linux interrupt number (um_pci_compose_msi_msg); the data is what
    // goes back (um_pci_handle_irq_message, VIRTIO_PCIDEV_OP_MSI).
    sink.push_back(InterruptOut{false, static_cast<uint32_t>(message.data)});
  };
}

template <typename Access>
void DeviceFunction::ForEachPiece(uint64_t offset, uint64_t size, Access access) {
  uint64_t done = 0;
  while (done < size) {
    uint64_t at = offset + done;
    unsigned bytes = 8;
    while (bytes > 1 && (at % bytes != 0 || size - done < bytes)) bytes /= 2;
    access(at, done, bytes);
    done += bytes;
  }
}

static uint64_t LoadLittle(std::span<const uint8_t> bytes, uint64_t at, unsigned count) {
  uint64_t value = 0;
  for (unsigned b = 0; b < count; ++b) value |= uint64_t{bytes[at + b]} << (8 * b);
  return value;
}

static void StoreLittle(std::span<uint8_t> bytes, uint64_t at, unsigned count, uint64_t value) {
  for (unsigned b = 0; b < count; ++b) bytes[at + b] = static_cast<uint8_t>(value >> (8 * b));
}

void DeviceFunction::ConfigRead(uint64_t offset, std::span<uint8_t> out) {
  const auto& space = device_.model().spaces()[config_];
  if (offset >= space.size || out.size() > space.size - offset) {
    // Past the function's configuration space: as a master abort, all-ones,
    // without an access (Linux probes 100h for extended capabilities).
    std::fill(out.begin(), out.end(), uint8_t{0xFF});
    return;
  }
  ForEachPiece(offset, out.size(), [&](uint64_t at, uint64_t index, unsigned bytes) {
    StoreLittle(out, index, bytes, device_.Read(config_, at, 8 * bytes));
  });
}

void DeviceFunction::ConfigWrite(uint64_t offset, std::span<const uint8_t> data) {
  const auto& space = device_.model().spaces()[config_];
  if (offset >= space.size || data.size() > space.size - offset) return;  // dropped, as by the host bridge
  ForEachPiece(offset, data.size(), [&](uint64_t at, uint64_t index, unsigned bytes) {
    device_.Write(config_, at, 8 * bytes, LoadLittle(data, index, bytes));
  });
}

std::optional<emulator::SpaceId> DeviceFunction::BarSpace(unsigned bar, uint64_t offset, uint64_t size,
                                                          const char* what) {
  if (bar >= kBars || !bars_[bar]) {
    ProtocolError(std::string(what) + " of BAR " + std::to_string(bar) + ", which the database does not have");
    return std::nullopt;
  }
  const auto& space = device_.model().spaces()[*bars_[bar]];
  if (offset >= space.size || size > space.size - offset) {
    ProtocolError(std::string(what) + " of " + std::to_string(size) + " bytes at " + regdb::Hex(offset) +
                  " runs past the end of BAR " + std::to_string(bar) + " ('" + space.name + "', size " +
                  regdb::Hex(space.size) + ")");
    return std::nullopt;
  }
  return bars_[bar];
}

void DeviceFunction::MmioRead(unsigned bar, uint64_t offset, std::span<uint8_t> out) {
  auto space = BarSpace(bar, offset, out.size(), "MMIO read");
  if (!space) {
    std::fill(out.begin(), out.end(), uint8_t{0xFF});
    return;
  }
  ForEachPiece(offset, out.size(), [&](uint64_t at, uint64_t index, unsigned bytes) {
    StoreLittle(out, index, bytes, device_.Read(*space, at, 8 * bytes));
  });
}

void DeviceFunction::MmioWrite(unsigned bar, uint64_t offset, std::span<const uint8_t> data) {
  auto space = BarSpace(bar, offset, data.size(), "MMIO write");
  if (!space) return;
  ForEachPiece(offset, data.size(), [&](uint64_t at, uint64_t index, unsigned bytes) {
    device_.Write(*space, at, 8 * bytes, LoadLittle(data, index, bytes));
  });
}

void DeviceFunction::MmioMemset(unsigned bar, uint64_t offset, uint8_t value, uint64_t length) {
  auto space = BarSpace(bar, offset, length, "MMIO memset");
  if (!space) return;
  uint64_t pattern = value * 0x0101010101010101ull;
  ForEachPiece(offset, length, [&](uint64_t at, uint64_t, unsigned bytes) {
    device_.Write(*space, at, 8 * bytes, pattern);
  });
}

void DeviceFunction::ProtocolError(const std::string& what) {
  ++protocol_error_count_;
  if (protocol_errors_.size() < kMaxProtocolErrors) protocol_errors_.push_back(what);
}

void DeviceFunction::MemoryChanged(const GuestMemory& memory) {
  // A bus address is the kernel's physical address (UML_DMA_EMULATION:
  // dma-direct, no IOMMU), the regions' guest addresses.
  std::vector<emulator::ExternalRegion> regions;
  for (const GuestRegion& region : memory.regions()) {
    regions.push_back(emulator::ExternalRegion{region.guest_addr, region.bytes});
  }
  auto external = std::make_shared<const emulator::ExternalMemory>(std::move(regions));
  for (emulator::SpaceId space : dma_spaces_) {
    try {
      device_.AttachExternalMemory(space, external);
    } catch (const std::exception& e) {
      ProtocolError(std::string("shared memory does not fit the device's host memory space: ") + e.what());
    }
  }
}

void DeviceFunction::CollectIntx(std::vector<InterruptOut>& sink) {
  uint64_t edges = device_.interrupt_edges();
  for (; intx_edges_seen_ < edges; ++intx_edges_seen_) sink.push_back(InterruptOut{true, 0});
}

}  // namespace regemu::uml
