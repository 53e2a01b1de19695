#include "CIntercomShims_codecs.h"

int CIntercomShims_opus_encoder_set_int(OpusEncoder *encoder, int request, opus_int32 value) {
    return opus_encoder_ctl(encoder, request, value);
}
int CIntercomShims_opus_encoder_get_int(OpusEncoder *encoder, int request, opus_int32 *value) {
    return opus_encoder_ctl(encoder, request, value);
}
int CIntercomShims_opus_decoder_get_int(OpusDecoder *decoder, int request, opus_int32 *value) {
    return opus_decoder_ctl(decoder, request, value);
}

vpx_codec_err_t CIntercomShims_vpx_codec_enc_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_enc_cfg_t *config, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(context, interface, config, flags);
}
vpx_codec_err_t CIntercomShims_vpx_codec_dec_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_dec_cfg_t *config, vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(context, interface, config, flags);
}
