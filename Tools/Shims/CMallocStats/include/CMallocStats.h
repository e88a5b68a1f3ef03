#ifndef CMALLOCSTATS_H
#define CMALLOCSTATS_H

#include <stddef.h>

/// Bytes currently allocated through malloc (glibc's mallinfo2().uordblks); 0 elsewhere.
size_t ribcage_malloc_in_use(void);

/// Returns free heap memory to the system where the allocator supports it (malloc_trim).
void ribcage_malloc_trim(void);

#endif
