#define _GNU_SOURCE
#include "CLibcShims.h"
#include <pthread.h>

int CIntercomShims_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

int CIntercomShims_get_thread_name(char *buffer, size_t size) { return pthread_getname_np(pthread_self(), buffer, size); }
