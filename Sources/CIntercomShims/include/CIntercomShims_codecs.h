#pragma once
#include <opus.h>
#include <vpx/vpx_encoder.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>

/// `opus_encoder_ctl` is variadic: one wrapper per request shape.
int CIntercomShims_opus_encoder_set_int(OpusEncoder *encoder, int request, opus_int32 value);
int CIntercomShims_opus_encoder_get_int(OpusEncoder *encoder, int request, opus_int32 *value);
int CIntercomShims_opus_decoder_get_int(OpusDecoder *decoder, int request, opus_int32 *value);

// OPUS_SET_*_REQUEST values are plain macros Swift imports, but the setters are function-like macros.
/// `vpx_codec_enc_init` is a macro around `vpx_codec_enc_init_ver(…, VPX_ENCODER_ABI_VERSION)`.
vpx_codec_err_t CIntercomShims_vpx_codec_enc_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_enc_cfg_t *config, vpx_codec_flags_t flags);
/// `vpx_codec_dec_init` is a macro around `vpx_codec_dec_init_ver(…, VPX_DECODER_ABI_VERSION)`.
vpx_codec_err_t CIntercomShims_vpx_codec_dec_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_dec_cfg_t *config, vpx_codec_flags_t flags);
