import CEspeakNG
import IntercomPlatform

/// espeak-ng itself: process-wide state that is not thread-safe, so only `SpeechSynthesizer`'s one thread
/// makes and uses an engine. Initialized in retrieval mode (`ENOUTPUT_MODE_SYNCHRONOUS`, no audio device):
/// `espeak_ng_Synthesize` returns once the text is spoken, its samples having arrived through the synth
/// callback into the buffer passed as the events' user_data.
final class EspeakEngine {
    let sampleRate: Int
    private var voice: String?

    /// `dataPath`: where espeak-ng-data is (nil: the library's default, /usr/lib/<triplet>/espeak-ng-data).
    init(dataPath: String? = nil) throws(SpeechError) {
        espeak_ng_InitializePath(dataPath)
        var context: espeak_ng_ERROR_CONTEXT?
        let status = espeak_ng_Initialize(&context)
        espeak_ng_ClearErrorContext(&context)
        try SpeechError.check("espeak_ng_Initialize(data at \(dataPath ?? "$ESPEAK_DATA_PATH or the library's default"))", status)
        try SpeechError.check("espeak_ng_InitializeOutput", espeak_ng_InitializeOutput(ENOUTPUT_MODE_SYNCHRONOUS, 0, nil))
        espeak_SetSynthCallback(collectSamples)
        sampleRate = Int(espeak_ng_GetSampleRate())
    }

    /// `text` (already cleaned) in `voice` ("en", "de", "en-us", "en+f3"), as mono 16-bit PCM at `sampleRate`.
    func speak(_ text: String, voice name: String) throws(SpeechError) -> [Int16] {
        if voice != name {
            voice = nil  // a failed change may leave the library's voice anything
            try SpeechError.check("espeak_ng_SetVoiceByName(\(name))", espeak_ng_SetVoiceByName(name))
            voice = name
        }
        guard !text.isEmpty else { return [] }
        let collector = SampleCollector()
        let utf8 = Array(text.utf8CString)
        let status = withExtendedLifetime(collector) {
            utf8.withUnsafeBufferPointer { bytes in
                espeak_ng_Synthesize(bytes.baseAddress, bytes.count, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8),
                                     nil, Unmanaged.passUnretained(collector).toOpaque())
            }
        }
        try SpeechError.check("espeak_ng_Synthesize", status)
        return collector.samples
    }
}

/// The samples of one `espeak_ng_Synthesize`, filled by `collectSamples` on the speech thread.
private final class SampleCollector {
    var samples: [Int16] = []
}

/// espeak-ng's synth callback: appends a chunk to the collector named in the events' user_data. Returns 0
/// (go on).
private func collectSamples(_ wave: UnsafeMutablePointer<Int16>?, _ count: Int32,
                            _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let wave, count > 0, let data = events?.pointee.user_data else { return 0 }
    let collector = Unmanaged<SampleCollector>.fromOpaque(data).takeUnretainedValue()
    collector.samples.append(contentsOf: UnsafeBufferPointer(start: wave, count: Int(count)))
    return 0
}
