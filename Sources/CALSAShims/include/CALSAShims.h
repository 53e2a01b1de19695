// alsa-lib's variadic error handler as a plain C function (Swift cannot implement a variadic callback).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <alsa/asoundlib.h>

/// snd_lib_error_set_handler with a handler that drops alsa-lib's own messages (its handler type is
/// variadic, which Swift cannot implement): our ALSAError already names the failing call and error, and
/// alsa-lib would otherwise print a dozen lines to stderr on every attempt to open a missing device.
void CIntercomShims_snd_lib_error_silence(void);
