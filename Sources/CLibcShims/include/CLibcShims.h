// glibc's heap statistics: Swift's Glibc module does not import mallinfo2 (glibc >= 2.33).
#pragma once
#include <stddef.h>

/// mallinfo2().uordblks + hblkhd: bytes currently allocated by malloc, over all arenas, plus the chunks
/// large enough (a video frame) that malloc gave them their own mmap.
size_t CIntercomShims_heap_bytes_in_use(void);

/// malloc_trim(0): hands the free pages of every arena back to the kernel (glibc returns only the main
/// arena's top on its own; a call's threads leave tens of MB free but resident in theirs). 1 if any was.
int CIntercomShims_release_free_heap(void);

// The calling thread's kernel name (pthread_setname_np/pthread_getname_np are GNU extensions the Glibc
// module does not import). Names are at most 15 bytes; both return 0 or an errno value.
int CIntercomShims_set_thread_name(const char *name);
int CIntercomShims_get_thread_name(char *buffer, size_t size);

// statfs(2)'s f_type (the filesystem's magic, linux/magic.h): sys/statfs.h is not in the Glibc module.
// 0, or -1 with errno set.
int CIntercomShims_filesystem_magic(const char *path, unsigned long long *magic);
