/* The readl()/writel() the example's C files are written against: the
 * kernel's in a kernel build, regemu's (regemu/iomem.h, backed by an
 * emulated device) otherwise, so the same C file builds in both. */
#ifndef REGEMU_EXAMPLES_I915_IO_H
#define REGEMU_EXAMPLES_I915_IO_H

#ifdef __KERNEL__
#include <linux/io.h>
#else
#include "regemu/iomem.h"
#endif

#ifndef __iomem
#define __iomem
#endif

#endif /* REGEMU_EXAMPLES_I915_IO_H */
