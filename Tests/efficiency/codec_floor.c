// codec_floor: what the agent's codecs alone cost, called straight from C, for the efficiency stage's ratio.
// Encodes the frames of an I420 .y4m with libvpx VP8 and 20 ms frames of a tone with libopus, configured as
// the agent configures them (Sources/Media/Codecs/VP8EncoderConfiguration.swift, OpusConfiguration.swift,
// with the pipeline's dropFrameThreshold = 0), paced by nothing: only CPU time is measured.
// Build: cc -O2 -o codec_floor codec_floor.c $(pkg-config --cflags --libs vpx opus) -lm
// Usage: codec_floor CLIP.y4m WIDTH HEIGHT FRAMES KBPS OPUS_FRAMES
// Prints one line: vp8 CPU ms per frame and opus CPU ms per 20 ms frame (thread CPU time).
#define _GNU_SOURCE
#include <math.h>
#include <opus/opus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vpx/vp8cx.h>
#include <vpx/vpx_encoder.h>

static double thread_cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int fail(const char *what, const char *detail) {
    fprintf(stderr, "codec_floor: %s: %s\n", what, detail);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 7) return fail("usage", "codec_floor CLIP.y4m WIDTH HEIGHT FRAMES KBPS OPUS_FRAMES");
    const char *path = argv[1];
    int width = atoi(argv[2]), height = atoi(argv[3]), frames = atoi(argv[4]), kbps = atoi(argv[5]);
    int opus_frames = atoi(argv[6]);
    size_t frame_size = (size_t)width * height * 3 / 2;

    // The whole clip in memory first, so reading it is not counted.
    FILE *file = fopen(path, "rb");
    if (!file) return fail(path, "cannot open");
    char line[1024];
    if (!fgets(line, sizeof line, file) || strncmp(line, "YUV4MPEG2", 9) != 0) return fail(path, "not a y4m file");
    int clip_frames = 0;
    unsigned char *clip = NULL;
    while (fgets(line, sizeof line, file) && strncmp(line, "FRAME", 5) == 0) {
        clip = realloc(clip, frame_size * (clip_frames + 1));
        if (fread(clip + frame_size * clip_frames, 1, frame_size, file) != frame_size) break;
        clip_frames++;
    }
    fclose(file);
    if (clip_frames == 0) return fail(path, "no whole frame");

    vpx_codec_enc_cfg_t cfg;
    vpx_codec_ctx_t codec;
    vpx_codec_enc_config_default(vpx_codec_vp8_cx(), &cfg, 0);
    cfg.g_w = width;
    cfg.g_h = height;
    cfg.g_timebase.num = 1;
    cfg.g_timebase.den = 90000;
    cfg.g_threads = 1;
    cfg.g_lag_in_frames = 0;
    cfg.g_error_resilient = 0;
    cfg.rc_end_usage = VPX_CBR;
    cfg.rc_target_bitrate = kbps;
    cfg.rc_min_quantizer = 2;
    cfg.rc_max_quantizer = 56;
    cfg.rc_undershoot_pct = 100;
    cfg.rc_overshoot_pct = 15;
    cfg.rc_buf_initial_sz = 500;
    cfg.rc_buf_optimal_sz = 600;
    cfg.rc_buf_sz = 1000;
    cfg.rc_dropframe_thresh = 0;
    cfg.kf_mode = VPX_KF_AUTO;
    cfg.kf_max_dist = 3000;
    if (vpx_codec_enc_init(&codec, vpx_codec_vp8_cx(), &cfg, 0)) return fail("vpx_codec_enc_init", vpx_codec_error(&codec));
    vpx_codec_control(&codec, VP8E_SET_CPUUSED, -12);
    vpx_codec_control(&codec, VP8E_SET_STATIC_THRESHOLD, 1);
    vpx_codec_control(&codec, VP8E_SET_TOKEN_PARTITIONS, 0);
    vpx_codec_control(&codec, VP8E_SET_NOISE_SENSITIVITY, 1);
    vpx_codec_control(&codec, VP8E_SET_MAX_INTRA_BITRATE_PCT, 300);

    size_t bytes = 0;
    vpx_image_t image;
    double vp8_start = thread_cpu_ms();
    for (int i = 0; i < frames; i++) {
        vpx_img_wrap(&image, VPX_IMG_FMT_I420, width, height, 1, clip + frame_size * (i % clip_frames));
        if (vpx_codec_encode(&codec, &image, (vpx_codec_pts_t)i * 3000, 3000, 0, VPX_DL_REALTIME))
            return fail("vpx_codec_encode", vpx_codec_error(&codec));
        vpx_codec_iter_t iterator = NULL;
        const vpx_codec_cx_pkt_t *packet;
        while ((packet = vpx_codec_get_cx_data(&codec, &iterator)))
            if (packet->kind == VPX_CODEC_CX_FRAME_PKT) bytes += packet->data.frame.sz;
    }
    double vp8_ms = (thread_cpu_ms() - vp8_start) / frames;
    vpx_codec_destroy(&codec);

    int error = 0;
    OpusEncoder *opus = opus_encoder_create(48000, 1, OPUS_APPLICATION_VOIP, &error);
    if (!opus) return fail("opus_encoder_create", opus_strerror(error));
    opus_encoder_ctl(opus, OPUS_SET_BITRATE(32000));
    opus_encoder_ctl(opus, OPUS_SET_COMPLEXITY(8));
    opus_encoder_ctl(opus, OPUS_SET_SIGNAL(OPUS_SIGNAL_VOICE));
    opus_encoder_ctl(opus, OPUS_SET_MAX_BANDWIDTH(OPUS_BANDWIDTH_WIDEBAND));
    opus_encoder_ctl(opus, OPUS_SET_INBAND_FEC(1));
    opus_encoder_ctl(opus, OPUS_SET_PACKET_LOSS_PERC(5));
    opus_encoder_ctl(opus, OPUS_SET_DTX(0));
    opus_int16 pcm[960];
    unsigned char packet[1500];
    double opus_start = thread_cpu_ms();
    for (int i = 0; i < opus_frames; i++) {
        for (int n = 0; n < 960; n++) pcm[n] = (opus_int16)(9830 * sin(2 * M_PI * 440 * (i * 960 + n) / 48000.0));
        if (opus_encode(opus, pcm, 960, packet, sizeof packet) < 0) return fail("opus_encode", "failed");
    }
    double opus_ms = (thread_cpu_ms() - opus_start) / opus_frames;
    opus_encoder_destroy(opus);

    printf("codec_floor %dx%d frames=%d kbps=%d: vp8_cpu_ms_per_frame=%.3f vp8_kbps_at_30fps=%.0f "
           "opus_cpu_ms_per_frame=%.4f\n",
           width, height, frames, kbps, vp8_ms, bytes * 8.0 / frames * 30 / 1000, opus_ms);
    free(clip);
    return 0;
}
