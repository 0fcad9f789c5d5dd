// empty_fuzz: does nothing with its input. The baseline for measuring a
// target's throughput: libFuzzer's own cost per input (mutation, coverage
// bookkeeping) under the same build flags, so a target's exec/s can be
// read as a fraction of the most the engine allows on this machine.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* /*data*/, size_t /*size*/) { return 0; }
