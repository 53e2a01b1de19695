#include "CLibcShims.h"

#include <sys/statfs.h>

int CIntercomShims_filesystem_magic(const char *path, unsigned long long *magic) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    *magic = (unsigned long long)info.f_type;
    return 0;
}
