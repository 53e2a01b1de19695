#pragma once
// webrtc-audio-processing 0.3 is a C++ API: this target only carries its pkg-config flags (include path,
// -lwebrtc_audio_processing) to CWebRTCAudioProcessing, the C shim Swift imports. Seen from C (Swift's
// importer), the header is empty on purpose.
#ifdef __cplusplus
#include <webrtc/modules/audio_processing/include/audio_processing.h>
#endif
