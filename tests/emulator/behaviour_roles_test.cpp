// The optional roles of a behaviour (emulator/behaviour.hpp): AccessGate,
// InterruptRouter, ChildInterrupts, MetricSource. A kind defined here takes
// a role through its interface; a kind whose program takes a role its
// behaviour does not play is refused when a device is made, naming both.
#include <array>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviour_registry.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::Kinds;
using testing_support::MakeDevice;

struct NoConfig : regdb::BehaviourConfig {};

// A gate over mmio 0x10..0x1F that refuses writes and lets reads through.
class WriteGate : public CopyableBehaviour<WriteGate>, public AccessGate {
 public:
  std::optional<AccessRefusal> CheckAccess(BehaviourContext&, uint32_t, uint64_t, unsigned, bool is_write) override {
    if (!is_write) return std::nullopt;
    return AccessRefusal{ViolationKind::kProtocol, "the gated block takes no writes"};
  }
};

// The same program, with a behaviour that is no AccessGate: a bug in a kind.
class NotAGate : public CopyableBehaviour<NotAGate> {};

// Takes the router's role without being an InterruptRouter.
class NotARouter : public CopyableBehaviour<NotARouter> {};

template <typename Runtime>
class GatingProgram : public BehaviourProgram {
 public:
  using BehaviourProgram::BehaviourProgram;
  std::vector<GatedRange> GatedRanges() const override { return {{0, 0x10, 0x1F, 0}}; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<Runtime>(); }
};

class RoutingProgram : public BehaviourProgram {
 public:
  using BehaviourProgram::BehaviourProgram;
  bool RoutesInterrupts() const override { return true; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<NotARouter>(); }
};

std::unique_ptr<regdb::BehaviourConfig> CheckNothing(const regdb::BehaviourSpec& spec, const regdb::Database&,
                                                     regdb::SchemaReader& reader) {
  static constexpr std::array<std::string_view, 2> kKeys{"kind", "name"};
  if (!reader.ExpectMap(spec.yaml, "a test behaviour", kKeys)) return nullptr;
  return std::make_unique<NoConfig>();
}

template <typename Program>
void Register(const char* kind) {
  RegisterBehaviourKind({
      .name = kind,
      .check = CheckNothing,
      .compile = [kind](const regdb::BehaviourSpec& spec, const Model&,
                        std::string&) -> std::unique_ptr<BehaviourProgram> {
        return std::make_unique<Program>(kind, spec.name);
      },
  });
}

void RegisterRoleKinds() {
  static bool done = [] {
    Register<GatingProgram<WriteGate>>("test-write-gate");
    Register<GatingProgram<NotAGate>>("test-not-a-gate");
    Register<RoutingProgram>("test-not-a-router");
    return true;
  }();
  (void)done;
}

std::string DeviceWith(const char* kind) {
  return std::string(R"y(device: roles
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: GATED, space: mmio, offset: 0x10}
behaviours:
  - {name: role, kind: )y") + kind + "}\n";
}

TEST(BehaviourRolesTest, AGateRefusesThroughItsInterface) {
  RegisterRoleKinds();
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  auto device = MakeDevice(DeviceWith("test-write-gate"), std::move(options));
  device->Write(0, 0x10, 32, 0x1234);
  EXPECT_EQ(device->Read(0, 0x10, 32), 0u) << "the write was dropped";
  EXPECT_THAT(Kinds(*device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("takes no writes"));
}

TEST(BehaviourRolesTest, ARoleWithoutItsInterfaceIsRefusedWhenTheDeviceIsMade) {
  RegisterRoleKinds();
  try {
    auto device = MakeDevice(DeviceWith("test-not-a-gate"));
    ADD_FAILURE() << "a device was made: " << device->model().device();
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("behaviour 'role' (kind test-not-a-gate) gates address ranges"),
                                HasSubstr("does not derive from AccessGate")));
  }
  try {
    auto device = MakeDevice(DeviceWith("test-not-a-router"));
    ADD_FAILURE() << "a device was made: " << device->model().device();
  } catch (const std::logic_error& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("routes the device's interrupts"), HasSubstr("InterruptRouter")));
  }
}

}  // namespace
}  // namespace regemu::emulator
