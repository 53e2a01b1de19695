#include "CLibcShims.h"
#include <malloc.h>

size_t CIntercomShims_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

int CIntercomShims_release_free_heap(void) { return malloc_trim(0); }
