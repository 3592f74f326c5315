// The bench's allocator setting (see pi_bench_fixed_malloc_thresholds in CReference.h) and the
// reference decoders' output buffers (pi_ref_advise_huge_pages).
#include "CReference.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int pi_bench_fixed_malloc_thresholds(size_t mmap_bytes, size_t trim_bytes)
{
#if defined(__GLIBC__)
    // Setting either threshold turns off glibc's dynamic adjustment of both (mallopt(3)).
    // mallopt takes an int: a value past INT_MAX is refused rather than truncated.
    if (mmap_bytes > INT_MAX || trim_bytes > INT_MAX) return 0;
    int mmap_ok = mallopt(M_MMAP_THRESHOLD, (int)mmap_bytes);
    int trim_ok = mallopt(M_TRIM_THRESHOLD, (int)trim_bytes);
    return mmap_ok == 1 && trim_ok == 1;
#else
    (void)mmap_bytes;
    (void)trim_bytes;
    return 0;
#endif
}

void pi_ref_advise_huge_pages(void *memory, size_t size)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20, threshold = (size_t)4 << 20;
    const char *setting = getenv("PUREIMAGE_HUGE_PAGES");
    if (memory == NULL || size < threshold || setting == NULL || strcmp(setting, "1") != 0) return;
    uintptr_t start = ((uintptr_t)memory + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t end = ((uintptr_t)memory + size) & ~(uintptr_t)(huge - 1);
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)memory;
    (void)size;
#endif
}
