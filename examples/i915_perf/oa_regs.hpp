#pragma once
// The OA registers and bits as i915 defines them (i915_perf_oa_regs.h,
// i915_reg.h), for Haswell (gen7) and Gen8-11. The driver
// is written against i915's own numbers, as i915 is, not against the
// database it is tested on; the static_asserts pin the two together, so a
// database that moved an OA register or field would stop the build here.

#include <bit>
#include <cstdint>

#include "regemu/regs/hsw.hpp"
#include "regemu/regs/icl.hpp"

namespace regemu::i915_perf {

// i915's OA_BUFFER_SIZE, and the smallest buffer the size fields encode.
inline constexpr uint32_t kOaBufferSize = 16u << 20;
inline constexpr uint32_t kOaBufferSizeMin = 128u << 10;

// OABUFFER_SIZE_128K .. _16M: log2(size / 128 KiB) in bits 5:3 (Gen8+
// OABUFFER, HSW OASTATUS1). `size` is a power of two in [128 KiB, 16 MiB].
constexpr uint32_t OaBufferSizeField(uint32_t size) {
  return static_cast<uint32_t>(std::countr_zero(size / kOaBufferSizeMin)) << 3;
}
static_assert(OaBufferSizeField(kOaBufferSize) == 0x38);  // i915's OABUFFER_SIZE_16M

// The 256-byte report format each generation's RenderBasic stream uses
// (i915_perf.c oa_formats): HSW A45_B8_C8, Gen8+ A32u40_A4u32_B8_C8; both code 5.
inline constexpr uint32_t kOaFormatCode = 5;
inline constexpr uint32_t kOaReportSize = 256;

// Head and tail registers hold 64-byte aligned GGTT addresses.
inline constexpr uint32_t kOaPointerMask = 0xFFFFFFC0;

namespace gen7 {
inline constexpr uint64_t kOaControl = 0x2360;
inline constexpr uint32_t kOaControlTimerPeriodShift = 6;
inline constexpr uint32_t kOaControlTimerEnable = 1u << 5;
inline constexpr uint32_t kOaControlFormatShift = 2;
inline constexpr uint32_t kOaControlEnable = 1u << 0;

inline constexpr uint64_t kOaStatus1 = 0x2364;  // tail, buffer size, status
inline constexpr uint32_t kOaStatus1ReportLost = 1u << 0;
inline constexpr uint32_t kOaStatus1BufferOverflow = 1u << 1;

inline constexpr uint64_t kOaStatus2 = 0x2368;  // head
inline constexpr uint32_t kOaStatus2MemSelectGgtt = 1u << 0;

inline constexpr uint64_t kOaBuffer = 0x23B0;

inline constexpr uint64_t kMiscCpCtl = 0x9424;
inline constexpr uint32_t kDopClockGateEnable = 1u << 0;
inline constexpr uint64_t kUcgCtl1 = 0x9400;
inline constexpr uint32_t kCsUnitClockGateDisable = 1u << 7;
inline constexpr uint64_t kGdtChickenBits = 0x9840;
inline constexpr uint32_t kGtNoaEnable = 0x80;
}  // namespace gen7

namespace gen8 {
inline constexpr uint64_t kOaCtxControl = 0x2360;
inline constexpr uint32_t kOaTimerPeriodShift = 2;
inline constexpr uint32_t kOaTimerEnable = 1u << 1;
inline constexpr uint32_t kOaCounterResume = 1u << 0;

inline constexpr uint64_t kOaBufferUdw = 0x23B4;

inline constexpr uint64_t kOaControl = 0x2B00;
inline constexpr uint32_t kOaReportFormatShift = 2;
inline constexpr uint32_t kOaCounterEnable = 1u << 0;

inline constexpr uint64_t kOaDebug = 0x2B04;  // masked
inline constexpr uint32_t kOaDebugDisableClkRatioReports = 1u << 5;
inline constexpr uint32_t kOaDebugIncludeClkRatio = 1u << 6;

inline constexpr uint64_t kOaStatus = 0x2B08;
inline constexpr uint32_t kOaStatusReportLost = 1u << 0;
inline constexpr uint32_t kOaStatusBufferOverflow = 1u << 1;
inline constexpr uint32_t kOaStatusCounterOverflow = 1u << 2;
inline constexpr uint32_t kOaStatusHeadPointerWrap = 1u << 16;
inline constexpr uint32_t kOaStatusTailPointerWrap = 1u << 17;

inline constexpr uint64_t kOaHeadPtr = 0x2B0C;
inline constexpr uint64_t kOaTailPtr = 0x2B10;
inline constexpr uint64_t kOaBuffer = 0x2B14;
inline constexpr uint32_t kOaBufferMemSelectGgtt = 1u << 0;

inline constexpr uint64_t kRpmConfig1 = 0x0D04;
inline constexpr uint32_t kGen10GtNoaEnable = 1u << 9;

// Report dword 0: the reason field, and the context-valid bit of Gen9-11.
inline constexpr uint32_t kReportReasonShift = 19;
inline constexpr uint32_t kReportReasonMask = 0x3F;
inline constexpr uint32_t kReportCtxValid = 1u << 16;
inline constexpr uint32_t kInvalidCtxId = 0xFFFFFFFF;
}  // namespace gen8

// ---- the same registers in the shipped databases
namespace hsw_db = ::regemu::regs::hsw;
static_assert(gen7::kOaControl == hsw_db::OACONTROL::kOffset);
static_assert(gen7::kOaControlTimerEnable == hsw_db::OACONTROL::TIMER_ENABLE::kMask);
static_assert(gen7::kOaControlTimerPeriodShift == hsw_db::OACONTROL::TIMER_PERIOD::kShift);
static_assert(gen7::kOaControlFormatShift == hsw_db::OACONTROL::COUNTER_SELECT::kShift);
static_assert(gen7::kOaControlEnable == hsw_db::OACONTROL::PERFORMANCE_COUNTER_ENABLE::kMask);
static_assert(gen7::kOaStatus1 == hsw_db::OASTATUS1::kOffset);
static_assert(gen7::kOaStatus1ReportLost == hsw_db::OASTATUS1::REPORT_LOST_ERROR::kMask);
static_assert(gen7::kOaStatus1BufferOverflow == hsw_db::OASTATUS1::BUFFER_OVERFLOW::kMask);
static_assert(gen7::kOaStatus2 == hsw_db::OASTATUS2::kOffset);
static_assert(gen7::kOaStatus2MemSelectGgtt == hsw_db::OASTATUS2::MEMORY_SELECT::kMask);
static_assert(gen7::kOaBuffer == hsw_db::OABUFFER::kOffset);
static_assert(gen7::kMiscCpCtl == hsw_db::GEN7_MISCCPCTL::kOffset);
static_assert(gen7::kDopClockGateEnable == hsw_db::GEN7_MISCCPCTL::DOP_CLOCK_GATE_ENABLE::kMask);
static_assert(gen7::kUcgCtl1 == hsw_db::GEN6_UCGCTL1::kOffset);
static_assert(gen7::kCsUnitClockGateDisable == hsw_db::GEN6_UCGCTL1::CSUNIT_CLOCK_GATE_DISABLE::kMask);
static_assert(gen7::kGdtChickenBits == hsw_db::GDT_CHICKEN_BITS::kOffset);
static_assert(gen7::kGtNoaEnable == hsw_db::GDT_CHICKEN_BITS::GT_NOA_ENABLE::kMask);

namespace icl_db = ::regemu::regs::icl;
static_assert(gen8::kOaCtxControl == icl_db::OACTXCONTROL::kOffset);
static_assert(gen8::kOaTimerPeriodShift == icl_db::OACTXCONTROL::TIMER_PERIOD::kShift);
static_assert(gen8::kOaTimerEnable == icl_db::OACTXCONTROL::TIMER_ENABLE::kMask);
static_assert(gen8::kOaCounterResume == icl_db::OACTXCONTROL::COUNTER_RESUME::kMask);
static_assert(gen8::kOaBufferUdw == icl_db::OABUFFER_UDW::kOffset);
static_assert(gen8::kOaControl == icl_db::OACONTROL::kOffset);
static_assert(gen8::kOaReportFormatShift == icl_db::OACONTROL::COUNTER_SELECT::kShift);
static_assert(gen8::kOaCounterEnable == icl_db::OACONTROL::COUNTER_ENABLE::kMask);
static_assert(gen8::kOaDebug == icl_db::OA_DEBUG::kOffset);
static_assert(gen8::kOaDebugDisableClkRatioReports == icl_db::OA_DEBUG::DISABLE_CLK_RATIO_REPORTS::kMask);
static_assert(gen8::kOaDebugIncludeClkRatio == icl_db::OA_DEBUG::INCLUDE_CLK_RATIO::kMask);
static_assert(gen8::kOaStatus == icl_db::OASTATUS::kOffset);
static_assert(gen8::kOaStatusReportLost == icl_db::OASTATUS::REPORT_LOST::kMask);
static_assert(gen8::kOaStatusBufferOverflow == icl_db::OASTATUS::OABUFFER_OVERFLOW::kMask);
static_assert(gen8::kOaStatusCounterOverflow == icl_db::OASTATUS::COUNTER_OVERFLOW::kMask);
static_assert(gen8::kOaStatusHeadPointerWrap == icl_db::OASTATUS::HEAD_POINTER_WRAP::kMask);
static_assert(gen8::kOaStatusTailPointerWrap == icl_db::OASTATUS::TAIL_POINTER_WRAP::kMask);
static_assert(gen8::kOaHeadPtr == icl_db::OAHEADPTR::kOffset);
static_assert(gen8::kOaTailPtr == icl_db::OATAILPTR::kOffset);
static_assert(gen8::kOaBuffer == icl_db::OABUFFER::kOffset);
static_assert(gen8::kOaBufferMemSelectGgtt == icl_db::OABUFFER::MEMORY_SELECT::kMask);
static_assert(gen8::kRpmConfig1 == icl_db::RPM_CONFIG1::kOffset);
static_assert(gen8::kGen10GtNoaEnable == icl_db::RPM_CONFIG1::GT_NOA_ENABLE::kMask);

}  // namespace regemu::i915_perf
