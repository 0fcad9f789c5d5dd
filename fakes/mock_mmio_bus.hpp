#pragma once
// A gmock MmioBus that can delegate to the emulator (gMock cookbook,
// "Delegating Calls to a Fake"): the fake keeps the device's state and
// enforces its rules, and a test EXPECT_CALLs only the accesses it cares
// about. A mock that does not delegate answers 0 and stores nothing, so
// prefer the fake's state (FieldIs, Wrote) to expectations on the mock.
//
//   MockMmioBus bus;
//   bus.DelegateToFake(device, "mmio");
//   EXPECT_CALL(bus, Write(_, _, _)).Times(AnyNumber());  // catch-all first
//   EXPECT_CALL(bus, Write(0x190010, 32, 0x80000000));
//   driver.Irq(bus);
//
// The catch-all matters: once a method has an EXPECT_CALL, a call matching
// none of its expectations is an "unexpected call" failure, on a NiceMock
// too (NiceMock only quiets methods without expectations). Expectations
// are matched newest first, so the specific ones go after the catch-all;
// both still delegate (the catch-all has no action of its own).

#include <memory>
#include <string_view>

#include <gmock/gmock.h>

#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::fakes {

class MockMmioBus : public MmioBus {
 public:
  MOCK_METHOD(uint64_t, Read, (uint64_t offset, unsigned width), (override));
  MOCK_METHOD(void, Write, (uint64_t offset, unsigned width, uint64_t value), (override));

  // Every call not otherwise expected goes to `space` of `device` (throws
  // std::invalid_argument for an unknown space).
  void DelegateToFake(emulator::Device& device, std::string_view space) {
    fake_ = std::make_unique<FakeMmioBus>(device, space);
    ON_CALL(*this, Read).WillByDefault([this](uint64_t offset, unsigned width) { return fake_->Read(offset, width); });
    ON_CALL(*this, Write).WillByDefault(
        [this](uint64_t offset, unsigned width, uint64_t value) { fake_->Write(offset, width, value); });
  }

  FakeMmioBus* fake() const { return fake_.get(); }

 private:
  std::unique_ptr<FakeMmioBus> fake_;
};

}  // namespace regemu::fakes
