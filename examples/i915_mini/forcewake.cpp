#include "examples/i915_mini/forcewake.hpp"

#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {
namespace {

namespace icl = ::regemu::regs::icl;

// i915's FORCEWAKE_KERNEL: the request and ack bit the driver owns.
constexpr uint32_t kKernel = icl::FORCEWAKE_RENDER_GEN9::KERNEL::kMask;

template <typename Visit>
void ForEachDomain(FwDomains domains, Visit visit) {
  for (unsigned d = 0; d < kFwDomainCount; ++d) {
    if ((domains & (FwDomains{1} << d)) != 0) visit(static_cast<FwDomain>(d));
  }
}

}  // namespace

const char* FwDomainName(FwDomain domain) {
  switch (domain) {
    case FwDomain::kRender: return "render";
    case FwDomain::kGt: return "gt";
    case FwDomain::kVdbox0: return "vdbox0";
    case FwDomain::kVdbox2: return "vdbox2";
    case FwDomain::kVebox0: return "vebox0";
  }
  return "?";
}

uint64_t Forcewake::RequestOffset(FwDomain domain) const {
  switch (domain) {
    case FwDomain::kRender: return icl::FORCEWAKE_RENDER_GEN9::kOffset;
    case FwDomain::kGt: return icl::FORCEWAKE_GT_GEN9::kOffset;
    case FwDomain::kVdbox0: return icl::FORCEWAKE_MEDIA_VDBOX_GEN11::OffsetOf(0);
    case FwDomain::kVdbox2: return icl::FORCEWAKE_MEDIA_VDBOX_GEN11::OffsetOf(2);
    case FwDomain::kVebox0: return icl::FORCEWAKE_MEDIA_VEBOX_GEN11::OffsetOf(0);
  }
  return 0;
}

uint64_t Forcewake::AckOffset(FwDomain domain) const {
  switch (domain) {
    case FwDomain::kRender: return icl::FORCEWAKE_ACK_RENDER_GEN9::kOffset;
    case FwDomain::kGt: return icl::FORCEWAKE_ACK_GT_GEN9::kOffset;
    case FwDomain::kVdbox0: return icl::FORCEWAKE_ACK_MEDIA_VDBOX_GEN11::OffsetOf(0);
    case FwDomain::kVdbox2: return icl::FORCEWAKE_ACK_MEDIA_VDBOX_GEN11::OffsetOf(2);
    case FwDomain::kVebox0: return icl::FORCEWAKE_ACK_MEDIA_VEBOX_GEN11::OffsetOf(0);
  }
  return 0;
}

bool Forcewake::WaitAck(FwDomain domain, bool set) {
  const uint32_t want = set ? kKernel : 0;
  return PollUntil(delay_, kFwAckTimeoutNs, kFwAckPollNs,
                   [&] { return (mmio_.Read32(AckOffset(domain)) & kKernel) == want; });
}

void Forcewake::ResetDomains() {
  ForEachDomain(kFwAll, [&](FwDomain d) { mmio_.Write32(RequestOffset(d), fakes::MaskedBitDisable(0xFFFF)); });
  held_ = 0;
}

bool Forcewake::Get(FwDomains domains) {
  bool acked = true;
  // A previous put may still be settling: the ack must drop before a new
  // request, or its stale "set" would be taken for this request's ack.
  ForEachDomain(domains, [&](FwDomain d) {
    acked = WaitAck(d, false) && acked;
    mmio_.Write32(RequestOffset(d), fakes::MaskedBitEnable(kKernel));
  });
  ForEachDomain(domains, [&](FwDomain d) { acked = WaitAck(d, true) && acked; });
  held_ |= domains;
  return acked;
}

void Forcewake::Put(FwDomains domains) {
  ForEachDomain(domains, [&](FwDomain d) { mmio_.Write32(RequestOffset(d), fakes::MaskedBitDisable(kKernel)); });
  held_ &= ~domains;
}

}  // namespace regemu::i915_mini
