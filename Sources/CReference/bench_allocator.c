// The bench's allocator setting (see pi_bench_fixed_malloc_thresholds in CReference.h).
#include "CReference.h"

#include <limits.h>

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
