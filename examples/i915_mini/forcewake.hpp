#pragma once
// Force-wake on Ice Lake, as i915 does it (intel_uncore.c): a masked
// request register per power domain and an ack
// register the driver polls. Registers in a domain's ranges answer only
// while the domain is held awake.

#include <cstdint>
#include <utility>

#include "examples/i915_mini/delay.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

// The ICL domains, in i915's domain-id order (FW_DOMAIN_ID_RENDER = 0,
// FW_DOMAIN_ID_GT = 1, then the media boxes ICL has: VCS0, VCS2, VECS0).
enum class FwDomain : uint8_t { kRender, kGt, kVdbox0, kVdbox2, kVebox0 };
inline constexpr unsigned kFwDomainCount = 5;

// A set of domains (i915's `enum forcewake_domains`).
using FwDomains = uint32_t;
constexpr FwDomains FwBit(FwDomain domain) { return FwDomains{1} << static_cast<unsigned>(domain); }
inline constexpr FwDomains kFwRender = FwBit(FwDomain::kRender);
inline constexpr FwDomains kFwGt = FwBit(FwDomain::kGt);
inline constexpr FwDomains kFwAll = (FwDomains{1} << kFwDomainCount) - 1;

const char* FwDomainName(FwDomain domain);

// i915's FORCEWAKE_ACK_TIMEOUT_MS, and how often the ack is re-read.
inline constexpr uint64_t kFwAckTimeoutNs = 50'000'000;
inline constexpr uint64_t kFwAckPollNs = 1'000;

class Forcewake {
 public:
  Forcewake(fakes::MmioBus& mmio, Delay delay) : mmio_(mmio), delay_(std::move(delay)) {}

  // __fw_domain_init: every domain's request cleared as it is registered,
  // without waiting for acks (the box may be fused off).
  void ResetDomains();

  // fw_domains_get_with_fallback without the fallback toggle: for each
  // domain wait for its ack to drop and request it, then wait for every
  // ack. False when an ack did not come within kFwAckTimeoutNs (i915 then
  // toggles FORCEWAKE_KERNEL_FALLBACK; the emulator's acks always come, so
  // the example reports the timeout instead).
  bool Get(FwDomains domains);
  // fw_domains_put: release, without waiting for the ack to drop.
  void Put(FwDomains domains);

  FwDomains held() const { return held_; }

 private:
  uint64_t RequestOffset(FwDomain domain) const;
  uint64_t AckOffset(FwDomain domain) const;
  bool WaitAck(FwDomain domain, bool set);

  fakes::MmioBus& mmio_;
  Delay delay_;
  FwDomains held_ = 0;
};

}  // namespace regemu::i915_mini
