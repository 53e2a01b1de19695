#include "CVPXShims.h"

vpx_codec_err_t CIntercomShims_vpx_codec_enc_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_enc_cfg_t *config, vpx_codec_flags_t flags) {
    return vpx_codec_enc_init(context, interface, config, flags);
}
vpx_codec_err_t CIntercomShims_vpx_codec_dec_init(vpx_codec_ctx_t *context, vpx_codec_iface_t *interface,
                                                  const vpx_codec_dec_cfg_t *config, vpx_codec_flags_t flags) {
    return vpx_codec_dec_init(context, interface, config, flags);
}
