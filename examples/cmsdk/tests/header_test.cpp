// cmsdk_apb.h and timer-sp.h's offsets against yaml/cmsdk_apb: each
// struct member, at its instance's base, is the register of the same name
// in the database's `apb` space (offset 0 at 0x40000000), and the reserved
// gaps put LOCK and the integration registers where ARM DDI 0479C does.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "examples/cmsdk/cmsdk_apb.h"
#include "examples/cmsdk/sp804.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"

namespace regemu::cmsdk {
namespace {

struct Placement {
  const char* reg;  // the database's name
  uint64_t address;
};

#define AT(base, type, member) (base + offsetof(type, member))

const Placement kHeader[] = {
    {"TIMER0_CTRL", AT(CMSDK_TIMER0_BASE, CMSDK_TIMER_TypeDef, CTRL)},
    {"TIMER0_VALUE", AT(CMSDK_TIMER0_BASE, CMSDK_TIMER_TypeDef, VALUE)},
    {"TIMER0_RELOAD", AT(CMSDK_TIMER0_BASE, CMSDK_TIMER_TypeDef, RELOAD)},
    {"TIMER0_INTSTATUS", AT(CMSDK_TIMER0_BASE, CMSDK_TIMER_TypeDef, INTSTATUS)},
    {"TIMER0_INTSTATUS", AT(CMSDK_TIMER0_BASE, CMSDK_TIMER_TypeDef, INTCLEAR)},
    {"TIMER1_CTRL", AT(CMSDK_TIMER1_BASE, CMSDK_TIMER_TypeDef, CTRL)},
    {"TIMER1_VALUE", AT(CMSDK_TIMER1_BASE, CMSDK_TIMER_TypeDef, VALUE)},
    {"TIMER1_RELOAD", AT(CMSDK_TIMER1_BASE, CMSDK_TIMER_TypeDef, RELOAD)},
    {"TIMER1_INTSTATUS", AT(CMSDK_TIMER1_BASE, CMSDK_TIMER_TypeDef, INTCLEAR)},
    {"DUALTIMER1_LOAD", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerLoad)},
    {"DUALTIMER1_VALUE", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerValue)},
    {"DUALTIMER1_CONTROL", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerControl)},
    {"DUALTIMER1_INTCLR", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerIntClr)},
    {"DUALTIMER1_RIS", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerRIS)},
    {"DUALTIMER1_MIS", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerMIS)},
    {"DUALTIMER1_BGLOAD", AT(CMSDK_DUALTIMER_1_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerBGLoad)},
    {"DUALTIMER2_LOAD", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerLoad)},
    {"DUALTIMER2_VALUE", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerValue)},
    {"DUALTIMER2_CONTROL", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerControl)},
    {"DUALTIMER2_INTCLR", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerIntClr)},
    {"DUALTIMER2_RIS", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerRIS)},
    {"DUALTIMER2_MIS", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerMIS)},
    {"DUALTIMER2_BGLOAD", AT(CMSDK_DUALTIMER_2_BASE, CMSDK_DUALTIMER_SINGLE_TypeDef, TimerBGLoad)},
    {"DUALTIMER1_LOAD", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, Timer1Load)},
    {"DUALTIMER1_BGLOAD", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, Timer1BGLoad)},
    {"DUALTIMER2_LOAD", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, Timer2Load)},
    {"DUALTIMER2_CONTROL", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, Timer2Control)},
    {"DUALTIMER2_BGLOAD", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, Timer2BGLoad)},
    {"TIMERITCR", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, ITCR)},
    {"TIMERITOP", AT(CMSDK_DUALTIMER_BASE, CMSDK_DUALTIMER_BOTH_TypeDef, ITOP)},
    {"WDOGLOAD", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, LOAD)},
    {"WDOGVALUE", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, VALUE)},
    {"WDOGCONTROL", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, CTRL)},
    {"WDOGINTCLR", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, INTCLR)},
    {"WDOGRIS", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, RAWINTSTAT)},
    {"WDOGMIS", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, MASKINTSTAT)},
    {"WDOGLOCK", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, LOCK)},
    {"WDOGITCR", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, ITCR)},
    {"WDOGITOP", AT(CMSDK_WATCHDOG_BASE, CMSDK_WATCHDOG_TypeDef, ITOP)},
    // Linux's timer-sp.h offsets from the SP804's base (sp805_wdt_test.cpp
    // checks sp805_wdt.c's: its LOCK macro would rename the struct member).
    {"DUALTIMER1_LOAD", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_LOAD},
    {"DUALTIMER1_VALUE", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_VALUE},
    {"DUALTIMER1_CONTROL", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_CTRL},
    {"DUALTIMER1_INTCLR", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_INTCLR},
    {"DUALTIMER1_RIS", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_RIS},
    {"DUALTIMER1_MIS", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_MIS},
    {"DUALTIMER1_BGLOAD", CMSDK_DUALTIMER_BASE + TIMER_1_BASE + TIMER_BGLOAD},
    {"DUALTIMER2_LOAD", CMSDK_DUALTIMER_BASE + TIMER_2_BASE + TIMER_LOAD},
    {"DUALTIMER2_CONTROL", CMSDK_DUALTIMER_BASE + TIMER_2_BASE + TIMER_CTRL},
    {"DUALTIMER2_INTCLR", CMSDK_DUALTIMER_BASE + TIMER_2_BASE + TIMER_INTCLR},
};

#undef AT

class HeaderTest : public fakes::DeviceTest {};

TEST_F(HeaderTest, EveryMemberIsTheDatabasesRegisterOfItsName) {
  LoadDevice(fakes::ShippedDatabase("cmsdk_apb"));
  const emulator::Model& model = device().model();
  std::optional<emulator::SpaceId> apb = model.FindSpace("apb");
  ASSERT_TRUE(apb.has_value());
  for (const Placement& p : kHeader) {
    SCOPED_TRACE(p.reg);
    std::optional<emulator::RegisterId> reg = model.FindRegister(p.reg);
    ASSERT_TRUE(reg.has_value());
    const emulator::RegisterModel& r = model.registers()[*reg];
    EXPECT_EQ(r.space, *apb);
    EXPECT_EQ(CMSDK_APB_BASE + r.offset, p.address) << std::hex << "database 0x" << CMSDK_APB_BASE + r.offset
                                                    << ", header 0x" << p.address;
    EXPECT_EQ(model.Decode(*apb, p.address - CMSDK_APB_BASE), *reg);
  }
}

// The structs' sizes and gaps as the TRM lays them out, and every pointer
// inside the database's 0x9000-byte window.
TEST_F(HeaderTest, TheStructsSpanTheirPeripherals) {
  EXPECT_EQ(sizeof(CMSDK_TIMER_TypeDef), 0x10u);
  EXPECT_EQ(sizeof(CMSDK_DUALTIMER_SINGLE_TypeDef), 0x1Cu);
  EXPECT_EQ(sizeof(CMSDK_DUALTIMER_BOTH_TypeDef), 0xF08u);
  EXPECT_EQ(sizeof(CMSDK_WATCHDOG_TypeDef), 0xF08u);
  LoadDevice(fakes::ShippedDatabase("cmsdk_apb"));
  std::optional<emulator::SpaceId> apb = device().model().FindSpace("apb");
  ASSERT_TRUE(apb.has_value());
  EXPECT_EQ(device().model().spaces()[*apb].size, 0x9000u);
  EXPECT_LE(CMSDK_WATCHDOG_BASE + sizeof(CMSDK_WATCHDOG_TypeDef), CMSDK_APB_BASE + 0x9000u);
}

}  // namespace
}  // namespace regemu::cmsdk
