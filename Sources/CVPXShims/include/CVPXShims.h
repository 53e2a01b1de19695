// libvpx's function-like macros as plain C functions (Swift cannot import them).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <vpx/vpx_encoder.h>
#include <vpx/vpx_decoder.h>
#include <vpx/vp8cx.h>
#include <vpx/vp8dx.h>

/// `vpx_codec_enc_init` is a macro around `vpx_codec_enc_init_ver(…, VPX_ENCODER_ABI_VERSION)`.
vpx_codec_err_t CIntercomShims_vpx_codec_enc_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_enc_cfg_t *config, vpx_codec_flags_t flags);
/// `vpx_codec_dec_init` is a macro around `vpx_codec_dec_init_ver(…, VPX_DECODER_ABI_VERSION)`.
vpx_codec_err_t CIntercomShims_vpx_codec_dec_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_dec_cfg_t *config, vpx_codec_flags_t flags);
