// InjectVerbCheck (script.hpp): an `inject` no behaviour takes is a script
// error found when the script is parsed, not when the run reaches it.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::emulator {

// Fresh instances of the model's behaviours on a scratch device (which
// borrows the model). An offer is a few string compares: none is cached.
class InjectVerbCheck::Probe {
 public:
  explicit Probe(const Model& model)
      : device_(std::shared_ptr<const Model>(std::shared_ptr<const Model>(), &model), ScratchOptions()) {
    const auto& programs = model.behaviours();
    for (uint32_t i = 0; i < programs.size(); ++i) {
      instances_.push_back(programs[i]->Instantiate());
      BehaviourContext context(device_, i);
      instances_.back()->OnReset(context);
    }
  }

  // Whether behaviour `index` takes `verb`.
  bool Takes(uint32_t index, const std::string& verb) {
    BehaviourContext context(device_, index);
    std::string error;
    return instances_[index]->Inject(context, verb, std::span<const std::string>(), error) != InjectResult::kNotMine;
  }

  size_t size() const { return instances_.size(); }

 private:
  static DeviceOptions ScratchOptions() {
    DeviceOptions options;
    options.thread_safe = false;
    options.trace_capacity = 0;
    options.policy = ViolationPolicy::Lenient();
    return options;
  }

  Device device_;
  std::vector<std::unique_ptr<Behaviour>> instances_;
};

InjectVerbCheck::InjectVerbCheck(const Model& model) : model_(model) {}
InjectVerbCheck::~InjectVerbCheck() = default;

std::string InjectVerbCheck::Problem(const std::string& verb) {
  if (!probe_) probe_ = std::make_unique<Probe>(model_);
  for (uint32_t i = 0; i < probe_->size(); ++i) {
    if (probe_->Takes(i, verb)) return "";
  }
  std::string message = "no behaviour of device '" + model_.device() + "' handles 'inject " + verb + "'";
  // The verbs a probe can list are those named after their behaviour
  // (classic-iir, gen11-interrupts); a behaviour of that name takes none.
  const auto& programs = model_.behaviours();
  std::vector<std::string_view> named_verbs;
  for (uint32_t i = 0; i < programs.size(); ++i) {
    if (programs[i]->name() == verb) {
      message += ": behaviour '" + verb + "' (" + programs[i]->kind() + ") takes no inject verb named after it";
    } else if (probe_->Takes(i, programs[i]->name())) {
      named_verbs.push_back(programs[i]->name());
    }
  }
  return message + regdb::DidYouMean(verb, named_verbs);
}

}  // namespace regemu::emulator
