// A driver written only against the generated Haswell header and the
// RegisterIo concept runs unchanged against a plain array and against the
// emulator, and leaves the same register values in both.
//
// HSW PRM Observability, "Performance Counter Reporting": to point
// the OA buffer at a new area, clear the OA enable bit, write OASTATUS2, then
// OABUFFER, then OASTATUS1, then set the OA enable bit.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regs/hsw.hpp"
#include "tests/headergen/array_io.hpp"

namespace {

namespace hsw = ::regemu::regs::hsw;

// ---- The driver: it knows the generated header and the concept, nothing else.
template <regemu::hwreg::RegisterIo Io>
void ProgramOaBuffer(Io& io, uint32_t gtt_offset) {
  const uint32_t base = gtt_offset >> 6;  // GraphicsAddress[31:6]
  hsw::OACONTROL::Get().ReadFrom(io).set_performance_counter_enable(0).WriteTo(io);
  // A careless driver writes a 1 into OASTATUS2's reserved MBZ bit 5: the
  // generated header forces it to zero, so the device never sees it.
  hsw::OASTATUS2::FromValue(0x20)
      .set_head_pointer(base)
      .set_memory_select(hsw::OASTATUS2::MEMORY_SELECT::Value::GGTT)
      .WriteTo(io);
  hsw::OABUFFER::Get().set_report_buffer_offset(base).WriteTo(io);
  hsw::OASTATUS1::Get()
      .set_tail_pointer(base)
      .set_inter_trigger_report_buffer_size(hsw::OASTATUS1::INTER_TRIGGER_REPORT_BUFFER_SIZE::Value::SIZE_16MB)
      .WriteTo(io);
  hsw::OACONTROL::Get()
      .ReadFrom(io)
      .set_timer_period(5)
      .set_timer_enable(hsw::OACONTROL::TIMER_ENABLE::Value::ENABLE)
      .set_counter_select(hsw::OACONTROL::COUNTER_SELECT::Value::A45_B8_C8)
      .set_performance_counter_enable(1)
      .WriteTo(io);
}

// ---- The emulator behind the same concept.
class DeviceIo {
 public:
  DeviceIo(regemu::emulator::Device& device, regemu::emulator::SpaceId space) : device_(device), space_(space) {}
  uint64_t Read(uint64_t offset, unsigned width) { return device_.Read(space_, offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) { device_.Write(space_, offset, width, value); }

 private:
  regemu::emulator::Device& device_;
  regemu::emulator::SpaceId space_;
};
static_assert(regemu::hwreg::RegisterIo<DeviceIo>);

std::shared_ptr<const regemu::emulator::Model> HaswellModel() {
  regemu::regdb::LoadedDatabase loaded = regemu::regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/hsw");
  EXPECT_FALSE(loaded.diagnostics.has_errors());
  regemu::emulator::CompileResult compiled = regemu::emulator::Compile(loaded.database);
  EXPECT_TRUE(compiled.errors.empty());
  return compiled.model;
}

constexpr uint32_t kBuffer = 0x01000000;  // 16 MiB at graphics address 16 MiB

// The values the PRM's sequence leaves (tests/scripts/hsw_oa_buffer_setup.script).
void ExpectProgrammed(uint64_t oacontrol, uint64_t oastatus2, uint64_t oabuffer, uint64_t oastatus1) {
  EXPECT_EQ(oacontrol, 0x00000175u);
  EXPECT_EQ(oastatus2, 0x01000001u);
  EXPECT_EQ(oabuffer, 0x01000000u);
  EXPECT_EQ(oastatus1, 0x01000038u);
}

TEST(GeneratedDriver, ProgramsTheOaBufferOnAPlainArray) {
  regemu::testing::ArrayIo io(0x200000);
  ProgramOaBuffer(io, kBuffer);
  ExpectProgrammed(io.Read(hsw::OACONTROL::kOffset, 32), io.Read(hsw::OASTATUS2::kOffset, 32),
                   io.Read(hsw::OABUFFER::kOffset, 32), io.Read(hsw::OASTATUS1::kOffset, 32));
  EXPECT_EQ(io.writes(), 5u);
}

TEST(GeneratedDriver, ProgramsTheOaBufferOnTheEmulatorWithoutAViolation) {
  auto model = HaswellModel();
  ASSERT_NE(model, nullptr);
  regemu::emulator::Device device(model);
  auto space = model->FindSpace(hsw::OACONTROL::kSpace);
  ASSERT_TRUE(space.has_value());
  DeviceIo io(device, *space);
  ProgramOaBuffer(io, kBuffer);
  EXPECT_EQ(device.violation_count(), 0u);
  ExpectProgrammed(device.Peek(*space, hsw::OACONTROL::kOffset, 32), device.Peek(*space, hsw::OASTATUS2::kOffset, 32),
                   device.Peek(*space, hsw::OABUFFER::kOffset, 32), device.Peek(*space, hsw::OASTATUS1::kOffset, 32));
  // And the driver reads back through the header what it programmed.
  auto control = hsw::OACONTROL::Get().ReadFrom(io);
  EXPECT_EQ(control.counter_select_value(), hsw::OACONTROL::COUNTER_SELECT::Value::A45_B8_C8);
  EXPECT_EQ(control.timer_period(), 5u);
}

TEST(GeneratedDriver, SameRegisterValuesOnBothIos) {
  regemu::testing::ArrayIo array(0x200000);
  ProgramOaBuffer(array, kBuffer);
  auto model = HaswellModel();
  ASSERT_NE(model, nullptr);
  regemu::emulator::Device device(model);
  auto space = model->FindSpace("mmio");
  ASSERT_TRUE(space.has_value());
  DeviceIo io(device, *space);
  ProgramOaBuffer(io, kBuffer);
  for (uint64_t offset : {hsw::OACONTROL::kOffset, hsw::OASTATUS2::kOffset, hsw::OABUFFER::kOffset,
                          hsw::OASTATUS1::kOffset, hsw::OAPERF_A::OffsetOf(31), hsw::CEC3_1::kOffset}) {
    EXPECT_EQ(array.Read(offset, 32), device.Peek(*space, offset, 32)) << "offset " << offset;
  }
}

}  // namespace
