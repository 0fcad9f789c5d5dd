// `kind: i2c-bus`: the check of a bus, its command layout and its targets
// (yaml/README.md, "kind: i2c-bus").
#include "regemu/regdb/behaviour_configs/i2c_bus.hpp"

#include <array>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 10> kKeys{"kind",   "name",    "commands", "address", "receive",
                                                 "active", "enabled", "targets", "doc",     "ref"};
constexpr std::array<std::string_view, 5> kCommandKeys{"data", "read", "stop", "restart", "doc"};
constexpr std::array<std::string_view, 8> kTargetKeys{"name", "address", "size",     "pointer_bytes",
                                                      "page", "contents", "doc",     "ref"};
// 7-bit addressing: 0x00-0x07 and 0x78-0x7F are reserved by the I2C
// specification (UM10204 §3.1.12) for general call, START byte, CBUS, HS
// master codes and 10-bit addressing.
constexpr uint64_t kFirstTargetAddress = 0x08, kLastTargetAddress = 0x77;
constexpr uint64_t kMaxTargetSize = 1u << 24;  // a 24-bit word address: the largest EEPROMs

class I2cBusChecker {
 public:
  I2cBusChecker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader), what_("i2c-bus behaviour '" + spec.name + "'") {}

  std::unique_ptr<BehaviourConfig> Check() {
    if (!reader_.ExpectMap(spec_.yaml, "an i2c-bus behaviour", kKeys)) return nullptr;
    auto config = std::make_unique<I2cBusConfig>();
    config_ = config.get();
    if (const YamlNode* ref = spec_.yaml.Find("ref")) config->ref = reader_.Text(*ref, "ref").value_or("");
    if (const YamlNode* commands = reader_.Required(spec_.yaml, "commands", what_)) ReadCommands(*commands);
    if (const YamlNode* address = reader_.Required(spec_.yaml, "address", what_)) {
      RegisterScope registers(database_);
      if (auto expression = ParseExpression(*address, registers, reader_, "`address` of " + what_)) {
        if (expression->type() != ExpressionType::kNumber) {
          reader_.Error(*address, "`address` of " + what_ + " is a " + ExpressionTypeName(expression->type()) +
                                      ", expected a number (the target's 7-bit address)");
        } else {
          config->address = std::move(*expression);
        }
      }
    }
    if (const YamlNode* enabled = spec_.yaml.Find("enabled")) {
      RegisterScope registers(database_);
      if (auto expression = ParseExpression(*enabled, registers, reader_, "`enabled` of " + what_)) {
        if (expression->type() == ExpressionType::kTime) {
          reader_.Error(*enabled, "`enabled` of " + what_ + " is a time, expected a condition");
        } else {
          config->enabled = std::move(*expression);
        }
      }
    }
    if (const YamlNode* receive = reader_.Required(spec_.yaml, "receive", what_)) {
      config->receive = reader_.Identifier(*receive, "receive").value_or("");
      CheckFifoNamed(*receive, config->receive);
    }
    if (const YamlNode* active = spec_.yaml.Find("active"); active && reader_.ExpectSequence(*active, "active")) {
      for (const YamlNode& item : active->children) {
        if (auto bits = ResolveRegisterBits(item, "`active` of " + what_, database_, reader_)) {
          config->active.push_back(std::move(*bits));
        }
      }
    }
    if (const YamlNode* targets = spec_.yaml.Find("targets");
        targets && reader_.ExpectSequence(*targets, "targets")) {
      for (const YamlNode& item : targets->children) ReadTarget(item);
    }
    return config;
  }

 private:
  // Each part of a command entry is a bit range ("7:0") or one bit (8).
  void ReadCommands(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "`commands` of " + what_, kCommandKeys)) return;
    const std::string what = "`commands` of " + what_;
    auto part = [&](std::string_view key, bool required, FieldBits& out) {
      const YamlNode* value = required ? reader_.Required(node, key, what) : node.Find(key);
      if (!value) return;
      auto bits = reader_.Bits(*value, key);
      if (!bits) return;
      if (bits->msb >= 64) {
        reader_.Error(*value, "`" + std::string(key) + "` of " + what + " lies past bit 63 of an entry");
        return;
      }
      uint64_t mask = (bits->width() == 64 ? ~uint64_t{0} : ((uint64_t{1} << bits->width()) - 1)) << bits->lsb;
      if ((mask & used_) != 0) {
        reader_.Error(*value, "`" + std::string(key) + "` of " + what + " overlaps another part of the entry");
        return;
      }
      used_ |= mask;
      out = FieldBits::Of(mask);
    };
    part("data", true, config_->data);
    if (const YamlNode* data = node.Find("data"); data && config_->data.mask != 0 &&
                                                   (config_->data.mask >> config_->data.shift) != 0xFF) {
      reader_.Error(*data, "`data` of " + what + " must be 8 bits wide: I2C moves bytes");
    }
    part("read", true, config_->read);
    part("stop", true, config_->stop);
    part("restart", false, config_->restart);
    for (const FieldBits* single : {&config_->read, &config_->stop, &config_->restart}) {
      if (single->mask != 0 && (single->mask >> single->shift) != 1) {
        reader_.Error(node, what + ": `read`, `stop` and `restart` are one bit each");
        break;
      }
    }
  }

  void CheckFifoNamed(const YamlNode& node, const std::string& name) {
    if (name.empty()) return;
    std::vector<std::string_view> fifos;
    for (const BehaviourSpec& other : database_.behaviours) {
      if (other.kind != "fifo") continue;
      if (other.name == name) return;
      fifos.push_back(other.name);
    }
    reader_.Error(node, what_ + " receives into unknown fifo '" + name + "'" + DidYouMean(name, fifos));
  }

  void ReadTarget(const YamlNode& item) {
    if (!reader_.ExpectMap(item, "a target", kTargetKeys)) return;
    I2cTarget target;
    const YamlNode* name = reader_.Required(item, "name", "target");
    const YamlNode* address = reader_.Required(item, "address", "target");
    const YamlNode* size = reader_.Required(item, "size", "target");
    if (!name || !address || !size) return;
    target.name = reader_.Identifier(*name, "name").value_or("");
    std::string what = "target '" + target.name + "' of " + what_;
    auto parsed_address = reader_.Unsigned(*address, "address", kFirstTargetAddress, kLastTargetAddress);
    auto parsed_size = reader_.Unsigned(*size, "size", 1, kMaxTargetSize);
    if (!parsed_address || !parsed_size || target.name.empty()) return;
    target.address = static_cast<uint8_t>(*parsed_address);
    target.size = static_cast<uint32_t>(*parsed_size);
    if (const YamlNode* pointer = item.Find("pointer_bytes")) {
      target.pointer_bytes = static_cast<unsigned>(reader_.Unsigned(*pointer, "pointer_bytes", 1, 3).value_or(1));
      if (target.pointer_bytes < 3 && target.size > (uint32_t{1} << (8 * target.pointer_bytes))) {
        reader_.Error(*pointer, what + " holds " + std::to_string(target.size) + " bytes, more than " +
                                    std::to_string(target.pointer_bytes) + " pointer byte(s) can address");
      }
    } else if (target.size > 256) {
      reader_.Error(*size, what + " holds more than 256 bytes: say how many `pointer_bytes` address it");
    }
    if (const YamlNode* page = item.Find("page")) {
      target.page = static_cast<uint32_t>(reader_.Unsigned(*page, "page", 1, target.size).value_or(0));
      if (target.page != 0 && target.size % target.page != 0) {
        reader_.Error(*page, what + ": a page of " + std::to_string(target.page) + " bytes does not divide its " +
                                 std::to_string(target.size) + " bytes");
      }
    }
    if (const YamlNode* contents = item.Find("contents"); contents && reader_.ExpectSequence(*contents, "contents")) {
      if (contents->children.size() > target.size) {
        reader_.Error(*contents, what + " has " + std::to_string(contents->children.size()) +
                                     " bytes of `contents` but holds " + std::to_string(target.size));
      }
      for (const YamlNode& byte : contents->children) {
        target.contents.push_back(static_cast<uint8_t>(reader_.Unsigned(byte, "a byte of contents", 0, 0xFF).value_or(0)));
      }
    }
    for (const I2cTarget& other : config_->targets) {
      if (other.address == target.address) {
        reader_.Error(*address, what + " answers at " + Hex(target.address) + ", as target '" + other.name +
                                    "' does: one target per address");
        return;
      }
      if (other.name == target.name) {
        reader_.Error(*name, what_ + " has two targets named '" + target.name + "'");
        return;
      }
    }
    config_->targets.push_back(std::move(target));
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::string what_;
  I2cBusConfig* config_ = nullptr;
  uint64_t used_ = 0;  // entry bits claimed by the command's parts
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckI2cBusConfig(const BehaviourSpec& spec, const Database& database,
                                                   SchemaReader& reader) {
  return I2cBusChecker(spec, database, reader).Check();
}

}  // namespace regemu::regdb
