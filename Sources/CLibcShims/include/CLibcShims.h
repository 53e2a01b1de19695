// glibc's heap statistics: Swift's Glibc module does not import mallinfo2 (glibc >= 2.33).
#pragma once
#include <stddef.h>

/// mallinfo2().uordblks: bytes currently allocated by malloc, over all arenas.
size_t CIntercomShims_heap_bytes_in_use(void);
