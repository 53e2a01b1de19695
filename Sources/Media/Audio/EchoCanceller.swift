import CWebRTCAudioProcessing
import Synchronization

/// Acoustic echo cancellation for a box with a speaker next to its microphone (webrtc-audio-processing
/// 0.3). What the speaker plays goes in as the far end (`analyzeFarEnd`, from the playout thread), the
/// microphone's capture comes out without the speaker's echo (`processNearEnd`, from the capture thread).
/// Both take 16-bit mono in pieces of any length; the library's 10 ms frames are cut here. One lock keeps
/// the two threads out of the library at the same time (a 10 ms frame takes well under a millisecond).
public final class EchoCanceller: Sendable {
    public let sampleRate: Int
    /// Samples in one of the library's 10 ms frames.
    public let frameSamples: Int
    private let state: Mutex<State>

    private struct State {
        let processor: OpaquePointer
        var far: PCMFramer
        var near: PCMFramer
        /// Processed microphone samples not handed back yet (only when pieces are not whole 10 ms frames).
        var output: [Int16] = []
        var delayMilliseconds: Int32
        var framesAnalyzed = 0
        var framesProcessed = 0
    }

    /// - Parameter streamDelay: the time from a far-end sample entering `analyzeFarEnd` to its echo
    ///   entering `processNearEnd` (speaker buffer, the air, capture buffer); with `delayAgnostic` it is
    ///   only the first guess.
    public init(sampleRate: Int = 48_000, streamDelay: Duration, options: EchoCancellerOptions = .init())
        throws(EchoCancellerError)
    {
        var handle: OpaquePointer?
        var shimOptions = options.shimOptions
        try EchoCancellerError.check { intercom_apm_create(Int32(clamping: sampleRate), &shimOptions, &handle, $0) }
        guard let handle else { throw EchoCancellerError(call: "intercom_apm_create", code: -2) }
        let frame = Int(intercom_apm_frame_samples(handle))
        self.sampleRate = sampleRate
        frameSamples = frame
        state = Mutex(State(processor: handle, far: PCMFramer(frameSize: frame), near: PCMFramer(frameSize: frame),
                            delayMilliseconds: Self.milliseconds(streamDelay)))
    }

    deinit {
        state.withLock { intercom_apm_destroy($0.processor) }
    }

    /// The delay hint passed with every near-end frame.
    public var streamDelay: Duration {
        get { .milliseconds(state.withLock { $0.delayMilliseconds }) }
        set { state.withLock { $0.delayMilliseconds = Self.milliseconds(newValue) } }
    }

    /// What the speaker is about to play (mono, `sampleRate`).
    public func analyzeFarEnd(_ pcm: [Int16]) throws(EchoCancellerError) {
        try state.withLock { state throws(EchoCancellerError) in
            let processor = state.processor
            var analyzed = 0
            defer { state.framesAnalyzed += analyzed }
            try state.far.append(pcm) { frame throws(EchoCancellerError) in
                try EchoCancellerError.check { failed in
                    frame.withUnsafeBufferPointer { intercom_apm_analyze_far_end(processor, $0.baseAddress, $0.count, failed) }
                }
                analyzed += 1
            }
        }
    }

    /// The microphone's `pcm` with the far end's echo removed: as many samples as were given. Pieces that
    /// are whole 10 ms frames come back unchanged in timing; other sizes are delayed by up to one frame.
    public func processNearEnd(_ pcm: [Int16]) throws(EchoCancellerError) -> [Int16] {
        try state.withLock { state throws(EchoCancellerError) -> [Int16] in
            let processor = state.processor
            let delay = state.delayMilliseconds
            var processed: [Int16] = []
            processed.reserveCapacity(pcm.count + frameSamples)
            try state.near.append(pcm) { frame throws(EchoCancellerError) in
                try EchoCancellerError.check { failed in
                    frame.withUnsafeMutableBufferPointer {
                        intercom_apm_process_near_end(processor, $0.baseAddress, $0.count, delay, failed)
                    }
                }
                processed.append(contentsOf: frame.lazy.map(PCMFramer.int16))
            }
            state.framesProcessed += processed.count / frameSamples
            state.output.append(contentsOf: processed)
            // Until the first frame is through, the caller gets silence for what is still pending.
            if state.output.count < pcm.count {
                state.output.insert(contentsOf: repeatElement(0, count: pcm.count - state.output.count), at: 0)
            }
            let result = Array(state.output.prefix(pcm.count))
            state.output.removeFirst(pcm.count)
            return result
        }
    }

    /// The library's ERL/ERLE averages.
    public func metrics() throws(EchoCancellerError) -> EchoCancellerMetrics {
        try state.withLock { state throws(EchoCancellerError) -> EchoCancellerMetrics in
            var values = intercom_apm_metrics()
            try EchoCancellerError.check { intercom_apm_metrics_get(state.processor, &values, $0) }
            return EchoCancellerMetrics(
                echoReturnLoss: Int(values.echo_return_loss),
                echoReturnLossEnhancement: Int(values.echo_return_loss_enhancement),
                residualEchoReturnLoss: Int(values.residual_echo_return_loss))
        }
    }

    /// 10 ms far-end frames analyzed so far.
    public var framesAnalyzed: Int { state.withLock { $0.framesAnalyzed } }
    /// 10 ms microphone frames processed so far.
    public var framesProcessed: Int { state.withLock { $0.framesProcessed } }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
