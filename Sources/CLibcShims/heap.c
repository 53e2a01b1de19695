#include "CLibcShims.h"
#include <malloc.h>

size_t CIntercomShims_heap_bytes_in_use(void) { return mallinfo2().uordblks; }

int CIntercomShims_release_free_heap(void) { return malloc_trim(0); }
