/* What sp804.c and sp805_wdt.c need of the kernel: readl()/writel() and
 * their _relaxed forms as plain volatile loads and stores
 * (examples/plain_mmio.h), __iomem, and the bug switches of their
 * examples (cmsdk_bugs.h). In a kernel build <linux/io.h> gives the
 * accessors. */
#ifndef CMSDK_LINUX_IO_H
#define CMSDK_LINUX_IO_H

#ifdef __KERNEL__
#include <linux/io.h>
#else
#include "examples/plain_mmio.h"
#define readl_relaxed(addr) readl(addr)
#define writel_relaxed(value, addr) writel(value, addr)
#endif

#ifndef __iomem
#define __iomem
#endif

#include "examples/cmsdk/cmsdk_bugs.h"

#endif /* CMSDK_LINUX_IO_H */
