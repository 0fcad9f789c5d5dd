/* The readl()/writel() nvme_ctrl.c is written against: the kernel's in a
 * kernel build, plain volatile dereferences with REGEMU_PLAIN_MMIO (a BAR
 * pointer from a trapped mapping, regemu_map), regemu's accessors
 * (regemu/iomem.h, a regemu_iomap range) otherwise. */
#ifndef REGEMU_EXAMPLES_NVME_IO_H
#define REGEMU_EXAMPLES_NVME_IO_H

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

#endif /* REGEMU_EXAMPLES_NVME_IO_H */
