// Swift's Glibc module does not export <malloc.h>, so the benchmarks read the allocator's
// statistics through this shim.
#include "CMallocStats.h"

// Any libc header defines __GLIBC__; <stddef.h> (from the compiler) does not.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

size_t ribcage_malloc_in_use(void) {
#if defined(__GLIBC__)
    return mallinfo2().uordblks;
#else
    return 0;
#endif
}

void ribcage_malloc_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
