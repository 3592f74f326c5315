// The bench's allocator setting (see pi_bench_fixed_malloc_thresholds in CReference.h).
#include "CReference.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int pi_bench_fixed_malloc_thresholds(size_t bytes)
{
#if defined(__GLIBC__)
    // Setting either threshold turns off glibc's dynamic adjustment of both (mallopt(3)).
    int mmap_ok = mallopt(M_MMAP_THRESHOLD, (int)bytes);
    int trim_ok = mallopt(M_TRIM_THRESHOLD, (int)bytes);
    return mmap_ok == 1 && trim_ok == 1;
#else
    (void)bytes;
    return 0;
#endif
}
