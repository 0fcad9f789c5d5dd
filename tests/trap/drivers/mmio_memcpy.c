/* memcpy to and from MMIO the plain way (what memcpy_toio becomes in many
 * userspace ports): libc's memcpy for a size known at run time, an inline
 * struct copy for a fixed one. Plain C, no header of regemu. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct msix_entry {
	uint32_t addr_lo;
	uint32_t addr_hi;
	uint32_t data;
	uint32_t vector_control;
};

void mmio_memcpy_toio(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

void mmio_memcpy_fromio(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
}

void mmio_memset_io(void *dst, int c, size_t n)
{
	memset(dst, c, n);
}

void mmio_msix_write_entry(void *table, unsigned index, const struct msix_entry *entry)
{
	((struct msix_entry *)table)[index] = *entry;
}

void mmio_msix_read_entry(const void *table, unsigned index, struct msix_entry *entry)
{
	*entry = ((const struct msix_entry *)table)[index];
}
