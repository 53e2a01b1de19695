#pragma once
// A plain C face for webrtc-audio-processing 0.3's C++ `webrtc::AudioProcessing` (the float StreamConfig
// API), so Swift can hold one as an opaque handle. Mono only: the agent's audio is mono.
//
// Every function returns 0 or a negative `webrtc::AudioProcessing::Error` code and, on failure, points
// `*failed_call` at the name of the call that failed (a static string), so Swift can say which one.

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct intercom_apm intercom_apm;

/// `EchoCancellation::SuppressionLevel`: higher removes more echo and more of a simultaneous local talker.
enum {
    INTERCOM_APM_SUPPRESSION_LOW = 0,
    INTERCOM_APM_SUPPRESSION_MODERATE = 1,
    INTERCOM_APM_SUPPRESSION_HIGH = 2,
};

typedef struct intercom_apm_options {
    int suppression_level;   // INTERCOM_APM_SUPPRESSION_*
    int high_pass_filter;    // bool: removes DC and rumble below ~80 Hz
    int noise_suppression;   // bool: NoiseSuppression at kModerate
    int extended_filter;     // bool: Config ExtendedFilter (128 ms filter, robust to wrong delay hints)
    int delay_agnostic;      // bool: Config DelayAgnostic (estimates the delay itself)
} intercom_apm_options;

/// ERL and ERLE in dB as `EchoCancellation::GetMetrics` reports them (averages since the start).
typedef struct intercom_apm_metrics {
    int echo_return_loss;
    int echo_return_loss_enhancement;
    int residual_echo_return_loss;
} intercom_apm_metrics;

/// The negative error codes the shim itself returns (the same values as webrtc::AudioProcessing::Error).
enum {
    INTERCOM_APM_CREATION_FAILED = -2,
    INTERCOM_APM_NULL_POINTER = -5,
    INTERCOM_APM_BAD_PARAMETER = -6,
    INTERCOM_APM_BAD_SAMPLE_RATE = -7,
    INTERCOM_APM_BAD_DATA_LENGTH = -8,
};

/// A processor for `sample_rate_hz` (8000, 16000, 32000 or 48000) mono with the echo canceller on.
int intercom_apm_create(int sample_rate_hz, const intercom_apm_options *options, intercom_apm **out,
                        const char **failed_call);

/// Samples per 10 ms frame, the only size the two calls below take.
size_t intercom_apm_frame_samples(const intercom_apm *apm);

/// One 10 ms frame of what the speaker is about to play (the echo reference), floats in [-1, 1].
int intercom_apm_analyze_far_end(intercom_apm *apm, const float *samples, size_t count, const char **failed_call);

/// One 10 ms frame of the microphone, processed in place. `delay_ms` is the time from the far-end frame
/// being analyzed to its echo reaching this call (speaker buffer + acoustic path + capture buffer).
int intercom_apm_process_near_end(intercom_apm *apm, float *samples, size_t count, int delay_ms,
                                  const char **failed_call);

int intercom_apm_metrics_get(intercom_apm *apm, intercom_apm_metrics *metrics, const char **failed_call);

/// Whether the canceller thinks the last near-end frame might contain echo.
int intercom_apm_stream_has_echo(const intercom_apm *apm);

void intercom_apm_destroy(intercom_apm *apm);

#ifdef __cplusplus
}
#endif
