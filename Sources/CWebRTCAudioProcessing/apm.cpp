// Adapts webrtc::AudioProcessing (0.3, float StreamConfig API) to the C functions of
// CWebRTCAudioProcessing.h. No policy lives here: options come from Swift, errors go back as codes plus
// the name of the failing call.
#include "CWebRTCAudioProcessing.h"

#include <new>
#include <webrtc/modules/audio_processing/include/audio_processing.h>

struct intercom_apm {
    webrtc::AudioProcessing *processor;
    webrtc::StreamConfig stream;
};

namespace {

int fail(const char **failed_call, const char *call, int code) {
    if (failed_call) *failed_call = call;
    return code;
}

bool native_rate(int rate) {
    // The rates the canceller runs at without resampling; 10 ms of each is a whole number of samples.
    return rate == 8000 || rate == 16000 || rate == 32000 || rate == 48000;
}

webrtc::EchoCancellation::SuppressionLevel suppression(int level) {
    switch (level) {
    case INTERCOM_APM_SUPPRESSION_LOW: return webrtc::EchoCancellation::kLowSuppression;
    case INTERCOM_APM_SUPPRESSION_MODERATE: return webrtc::EchoCancellation::kModerateSuppression;
    default: return webrtc::EchoCancellation::kHighSuppression;
    }
}

// Applies the options; returns the failing call's code and name.
int configure(webrtc::AudioProcessing *processor, const webrtc::StreamConfig &stream,
              const intercom_apm_options &options, const char **failed_call) {
    webrtc::ProcessingConfig processing = {{stream, stream, stream, stream}};
    int result = processor->Initialize(processing);
    if (result != webrtc::AudioProcessing::kNoError) return fail(failed_call, "AudioProcessing::Initialize", result);
    webrtc::EchoCancellation *canceller = processor->echo_cancellation();
    // One full-duplex device: both directions share a clock, so there is no drift to compensate.
    result = canceller->enable_drift_compensation(false);
    if (result != 0) return fail(failed_call, "EchoCancellation::enable_drift_compensation", result);
    result = canceller->set_suppression_level(suppression(options.suppression_level));
    if (result != 0) return fail(failed_call, "EchoCancellation::set_suppression_level", result);
    result = canceller->enable_metrics(true);
    if (result != 0) return fail(failed_call, "EchoCancellation::enable_metrics", result);
    result = canceller->Enable(true);
    if (result != 0) return fail(failed_call, "EchoCancellation::Enable", result);
    result = processor->high_pass_filter()->Enable(options.high_pass_filter != 0);
    if (result != 0) return fail(failed_call, "HighPassFilter::Enable", result);
    if (options.noise_suppression) {
        result = processor->noise_suppression()->set_level(webrtc::NoiseSuppression::kModerate);
        if (result != 0) return fail(failed_call, "NoiseSuppression::set_level", result);
    }
    result = processor->noise_suppression()->Enable(options.noise_suppression != 0);
    if (result != 0) return fail(failed_call, "NoiseSuppression::Enable", result);
    return 0;
}

}  // namespace

extern "C" int intercom_apm_create(int sample_rate_hz, const intercom_apm_options *options, intercom_apm **out,
                                   const char **failed_call) {
    if (!options || !out) return fail(failed_call, "intercom_apm_create", INTERCOM_APM_NULL_POINTER);
    *out = nullptr;
    if (!native_rate(sample_rate_hz)) return fail(failed_call, "intercom_apm_create", INTERCOM_APM_BAD_SAMPLE_RATE);
    if (options->suppression_level < INTERCOM_APM_SUPPRESSION_LOW || options->suppression_level > INTERCOM_APM_SUPPRESSION_HIGH) {
        return fail(failed_call, "intercom_apm_create", INTERCOM_APM_BAD_PARAMETER);
    }
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(options->extended_filter != 0));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(options->delay_agnostic != 0));
    // Config's default turns the experimental AGC on; gain control is not ours to change here.
    config.Set<webrtc::ExperimentalAgc>(new webrtc::ExperimentalAgc(false));
    webrtc::AudioProcessing *processor = webrtc::AudioProcessing::Create(config);
    if (!processor) return fail(failed_call, "AudioProcessing::Create", INTERCOM_APM_CREATION_FAILED);
    webrtc::StreamConfig stream(sample_rate_hz, 1);
    int result = configure(processor, stream, *options, failed_call);
    if (result != 0) {
        delete processor;
        return result;
    }
    intercom_apm *apm = new (std::nothrow) intercom_apm{processor, stream};
    if (!apm) {
        delete processor;
        return fail(failed_call, "intercom_apm_create", INTERCOM_APM_CREATION_FAILED);
    }
    *out = apm;
    return 0;
}

extern "C" size_t intercom_apm_frame_samples(const intercom_apm *apm) {
    return apm ? apm->stream.num_frames() : 0;
}

extern "C" int intercom_apm_analyze_far_end(intercom_apm *apm, const float *samples, size_t count,
                                            const char **failed_call) {
    if (!apm || !samples) return fail(failed_call, "intercom_apm_analyze_far_end", INTERCOM_APM_NULL_POINTER);
    if (count != apm->stream.num_frames()) {
        return fail(failed_call, "intercom_apm_analyze_far_end", INTERCOM_APM_BAD_DATA_LENGTH);
    }
    // The reverse output is not used (nothing here changes what the speaker plays): a scratch copy.
    float scratch[480];  // 10 ms at 48 kHz, the most create() accepts
    const float *source[] = {samples};
    float *destination[] = {scratch};
    int result = apm->processor->ProcessReverseStream(source, apm->stream, apm->stream, destination);
    return result == 0 ? 0 : fail(failed_call, "AudioProcessing::ProcessReverseStream", result);
}

extern "C" int intercom_apm_process_near_end(intercom_apm *apm, float *samples, size_t count, int delay_ms,
                                             const char **failed_call) {
    if (!apm || !samples) return fail(failed_call, "intercom_apm_process_near_end", INTERCOM_APM_NULL_POINTER);
    if (count != apm->stream.num_frames()) {
        return fail(failed_call, "intercom_apm_process_near_end", INTERCOM_APM_BAD_DATA_LENGTH);
    }
    // Must precede every ProcessStream while the canceller is on. An out-of-range hint (below 0 or over
    // 500 ms) is clamped by the library and reported as kBadStreamParameterWarning: not a failure.
    int result = apm->processor->set_stream_delay_ms(delay_ms);
    if (result != 0 && result != webrtc::AudioProcessing::kBadStreamParameterWarning) {
        return fail(failed_call, "AudioProcessing::set_stream_delay_ms", result);
    }
    float *channels[] = {samples};
    result = apm->processor->ProcessStream(channels, apm->stream, apm->stream, channels);
    if (result != 0 && result != webrtc::AudioProcessing::kBadStreamParameterWarning) {
        return fail(failed_call, "AudioProcessing::ProcessStream", result);
    }
    return 0;
}

extern "C" int intercom_apm_metrics_get(intercom_apm *apm, intercom_apm_metrics *metrics, const char **failed_call) {
    if (!apm || !metrics) return fail(failed_call, "intercom_apm_metrics_get", INTERCOM_APM_NULL_POINTER);
    webrtc::EchoCancellation::Metrics values;
    int result = apm->processor->echo_cancellation()->GetMetrics(&values);
    if (result != 0) return fail(failed_call, "EchoCancellation::GetMetrics", result);
    metrics->echo_return_loss = values.echo_return_loss.average;
    metrics->echo_return_loss_enhancement = values.echo_return_loss_enhancement.average;
    metrics->residual_echo_return_loss = values.residual_echo_return_loss.average;
    return 0;
}

extern "C" int intercom_apm_stream_has_echo(const intercom_apm *apm) {
    return apm && apm->processor->echo_cancellation()->stream_has_echo() ? 1 : 0;
}

extern "C" void intercom_apm_destroy(intercom_apm *apm) {
    if (!apm) return;
    delete apm->processor;
    delete apm;
}
