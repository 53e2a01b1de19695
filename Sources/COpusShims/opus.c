#include "COpusShims.h"

int CIntercomShims_opus_encoder_set_int(OpusEncoder *encoder, int request, opus_int32 value) {
    return opus_encoder_ctl(encoder, request, value);
}
int CIntercomShims_opus_encoder_get_int(OpusEncoder *encoder, int request, opus_int32 *value) {
    return opus_encoder_ctl(encoder, request, value);
}
int CIntercomShims_opus_decoder_get_int(OpusDecoder *decoder, int request, opus_int32 *value) {
    return opus_decoder_ctl(decoder, request, value);
}
