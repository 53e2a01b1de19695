// libopus's variadic ctl functions as plain C functions (Swift cannot import them).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <opus.h>

/// `opus_encoder_ctl` is variadic: one wrapper per request shape.
int CIntercomShims_opus_encoder_set_int(OpusEncoder *encoder, int request, opus_int32 value);
int CIntercomShims_opus_encoder_get_int(OpusEncoder *encoder, int request, opus_int32 *value);
int CIntercomShims_opus_decoder_get_int(OpusDecoder *decoder, int request, opus_int32 *value);

// OPUS_SET_*_REQUEST values are plain macros Swift imports, but the setters are function-like macros.
