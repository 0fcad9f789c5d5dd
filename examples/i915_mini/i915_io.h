/* The readl()/writel() the example's C files are written against: the
 * kernel's in a kernel build, plain volatile dereferences with
 * REGEMU_PLAIN_MMIO (for a trapped mapping, regemu_map), regemu's
 * (regemu/iomem.h, backed by an emulated device) otherwise, so the same C
 * file builds in all three. */
#ifndef REGEMU_EXAMPLES_I915_IO_H
#define REGEMU_EXAMPLES_I915_IO_H

#ifdef __KERNEL__
#include <linux/io.h>
#elif defined(REGEMU_PLAIN_MMIO)
#include "examples/plain_mmio.h"
#else
#include "regemu/iomem.h"
#endif

#ifndef __iomem
#define __iomem
#endif

#endif /* REGEMU_EXAMPLES_I915_IO_H */
