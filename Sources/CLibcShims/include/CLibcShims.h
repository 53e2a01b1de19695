// glibc's heap statistics: Swift's Glibc module does not import mallinfo2 (glibc >= 2.33).
#pragma once
#include <stddef.h>

/// mallinfo2().uordblks: bytes currently allocated by malloc, over all arenas.
size_t CIntercomShims_heap_bytes_in_use(void);

// The calling thread's kernel name (pthread_setname_np/pthread_getname_np are GNU extensions the Glibc
// module does not import). Names are at most 15 bytes; both return 0 or an errno value.
int CIntercomShims_set_thread_name(const char *name);
int CIntercomShims_get_thread_name(char *buffer, size_t size);
