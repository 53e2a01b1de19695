#include "CALSAShims.h"

static void CIntercomShims_snd_lib_error_drop(const char *file, int line, const char *function, int err,
                                              const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}

void CIntercomShims_snd_lib_error_silence(void) {
    snd_lib_error_set_handler(CIntercomShims_snd_lib_error_drop);
}
