#include "examples/i915_mini/gen11_irq.hpp"

namespace regemu::i915_mini {

// The driver's own instance: every MmioBus (fake, mock, real) shares it.
template class Gen11Irq<fakes::MmioBus>;

}  // namespace regemu::i915_mini
