import Foundation
import IntercomPlatform
import Logging
import Media
import Synchronization

/// The device's one encoder pair (SYSTEM.md §5): a video source → VP8 on one thread, the microphone (or
/// a test tone) → Opus on another (blocking capture, codec calls and pacing sleeps stay off the cooperative
/// pool). Video reaches every peer through `EncodedFrameBroadcaster` without a copy per peer; audio through
/// `AudioFanOut`. The caller's voice goes the other way, to `speaker`.
public final class DeviceMediaPipeline: Sendable {
    public struct Settings: Sendable {
        public var width = 640
        public var height = 480
        public var fps = 30
        public var bitrateKbps = 800
        public var minimumBitrateKbps = 150
        public var microphone: MicrophoneSource = .testTone()
        public var speaker: SpeakerSink = .none
        /// `[audio] echo_cancellation`: nil sends the microphone as captured.
        public var echoCancellation: EchoCancellationSetup?
        /// Opens the camera (or the test pattern); called on the video thread, again after a device loss.
        public var makeSource: @Sendable () -> any VideoSource

        public init(width: Int = 640, height: Int = 480, fps: Int = 30, bitrateKbps: Int = 800,
                    minimumBitrateKbps: Int = 150, makeSource: (@Sendable () -> any VideoSource)? = nil) {
            self.width = width
            self.height = height
            self.fps = fps
            self.bitrateKbps = bitrateKbps
            self.minimumBitrateKbps = minimumBitrateKbps
            self.makeSource = makeSource ?? {
                TestPatternSource(width: width, height: height, frameRate: FrameRate(fps), timing: .realtime)
            }
        }
    }

    public let settings: Settings
    public let video: EncodedFrameBroadcaster
    public let audio = AudioFanOut()
    public let speaker: SpeakerPlayout
    /// The speaker's far end in, the microphone's echo out; nil when echo cancellation is off.
    public let echoCanceller: EchoCanceller?
    /// The VP8 target the encoder thread applies when it changes (REMB-driven, the lowest peer's).
    public let targetKbps: Atomic<Int>
    private let estimates: Mutex<ViewerBitrateEstimates>
    private let nextPeer = Atomic<UInt64>(0)
    private let forceKeyframe = Atomic<Bool>(true)
    private let stopped = Atomic<Bool>(false)
    private let encodedCount = Atomic<Int>(0)
    private let capturedCount = Atomic<Int>(0)
    private let logger: Logger
    private let metrics: AgentMetrics?

    public init(settings: Settings, metrics: AgentMetrics? = nil, logger: Logger) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        echoCanceller = Self.makeEchoCanceller(settings, logger: logger)
        speaker = SpeakerPlayout(sink: settings.speaker, echoCanceller: echoCanceller, metrics: metrics, logger: logger)
        targetKbps = Atomic(settings.bitrateKbps)
        estimates = Mutex(ViewerBitrateEstimates(minimumKbps: min(settings.minimumBitrateKbps, settings.bitrateKbps),
                                                 maximumKbps: settings.bitrateKbps))
        let force = KeyframeFlag()
        video = EncodedFrameBroadcaster(onKeyframeRequest: { force.set() })
        let videoThread = Thread { [self] in encodeVideo(subscriberRequests: force) }
        videoThread.name = "intercom-vp8"
        videoThread.start()
        let audioThread = Thread { [self] in encodeAudio() }
        audioThread.name = "intercom-opus"
        audioThread.start()
    }

    public func requestKeyframe() { forceKeyframe.store(true, ordering: .relaxed) }

    /// A key for one peer's bandwidth estimates (`follow`, `forget`).
    public func makePeerKey() -> UInt64 { nextPeer.add(1, ordering: .relaxed).newValue }

    /// Follows `peer`'s bandwidth estimate: the encoder runs at the lowest of the peers' estimates (5 %
    /// headroom), within the configured range.
    public func follow(peer: UInt64, estimateBitsPerSecond: Int) {
        let target = estimates.withLock { estimates in
            estimates.update(peer: peer, estimateBitsPerSecond: estimateBitsPerSecond)
            return estimates.targetKbps
        }
        targetKbps.store(target, ordering: .relaxed)
    }

    /// `peer` left: its estimate no longer holds the others back.
    public func forget(peer: UInt64) {
        let target = estimates.withLock { estimates in
            estimates.remove(peer: peer)
            return estimates.targetKbps
        }
        targetKbps.store(target, ordering: .relaxed)
    }

    public func stop() {
        stopped.store(true, ordering: .releasing)
        video.finish()
        audio.finish()
    }

    public var framesEncoded: Int { encodedCount.load(ordering: .relaxed) }
    public var framesCaptured: Int { capturedCount.load(ordering: .relaxed) }
    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    private func encodeVideo(subscriberRequests: KeyframeFlag) {
        var source = settings.makeSource()
        do {
            var configuration = VP8EncoderConfiguration(width: settings.width, height: settings.height,
                                                        framesPerSecond: settings.fps,
                                                        targetBitrateKbps: settings.bitrateKbps)
            // A nearly static picture must not make rate control skip frames.
            configuration.dropFrameThreshold = 0
            let encoder = try VP8Encoder(configuration: configuration)
            try source.open()
            defer { source.close() }
            while !isStopped {
                let frame: I420Frame
                switch try Self.read(source) {
                case .frame(let next): frame = next
                case .nothingYet: continue
                case .deviceLost(let error):
                    logger.warning("camera lost; reopening", metadata: ["error": "\(error)"])
                    source.close()
                    Thread.sleep(forTimeInterval: 1)
                    source = settings.makeSource()
                    try? source.open()
                    continue
                }
                capturedCount.add(1, ordering: .relaxed)
                let target = targetKbps.load(ordering: .relaxed)
                if target != encoder.configuration.targetBitrateKbps { try encoder.setBitrate(kbps: target) }
                let force = forceKeyframe.exchange(false, ordering: .relaxed) || subscriberRequests.take()
                let encodeStart = ContinuousClock.now
                let encodeCPUStart = CPUClock.thread()
                let packets = try encoder.encode(frame, forceKeyframe: force)
                metrics?.frameEncoded(in: ContinuousClock.now - encodeStart, cpu: CPUClock.thread() - encodeCPUStart)
                for encoded in packets {
                    encodedCount.add(1, ordering: .relaxed)
                    video.publish(encoded)
                }
            }
        } catch {
            logger.error("video pipeline stopped", metadata: ["error": "\(error)"])
        }
    }

    private enum FrameRead {
        case frame(I420Frame)
        case nothingYet
        case deviceLost(VideoSourceError)
    }

    /// The next frame; a lost device is an outcome (reopen), any other failure is thrown.
    private static func read(_ source: any VideoSource) throws(VideoSourceError) -> FrameRead {
        do {
            return try source.nextFrame().map(FrameRead.frame) ?? .nothingYet
        } catch {
            guard error.isDeviceLost else { throw error }
            return .deviceLost(error)
        }
    }

    private func encodeAudio() {
        do {
            let encoder = try OpusEncoder(configuration: OpusConfiguration())
            let samples = encoder.configuration.samplesPerFrame
            if case .alsa(let device, let configurationText) = settings.microphone {
                let microphone = MicrophoneCapture(device: device, configurationText: configurationText,
                                                   samplesPerFrame: samples, echoCanceller: echoCanceller,
                                                   logger: logger)
                while !isStopped {
                    let (pcm, xruns) = microphone.next()
                    if xruns > 0 { metrics?.audioXruns(xruns, direction: "capture") }
                    audio.publish(try encoder.encode(pcm))
                }
                return
            }
            let (hertz, amplitude) = if case .testTone(let hertz) = settings.microphone { (hertz, 0.3) } else { (440.0, 0.0) }
            var tone = ToneGenerator(frequency: hertz, amplitude: amplitude, sampleRate: 48_000, channels: 1)
            var deadline = MonotonicClock.now()
            while !isStopped {
                audio.publish(try encoder.encode(tone.next(frames: samples)))
                deadline += encoder.configuration.frameDuration
                MonotonicClock.sleep(until: deadline)
            }
        } catch {
            logger.error("audio pipeline stopped", metadata: ["error": "\(error)"])
        }
    }
}

/// Opus packets to every subscribed peer; a slow peer loses its oldest packets, never stalls the encoder.
public final class AudioFanOut: Sendable {
    private let subscribers = Mutex<[UInt64: AsyncStream<[UInt8]>.Continuation]>([:])
    private let nextId = Atomic<UInt64>(0)

    public init() {}

    public func subscribe() -> AsyncStream<[UInt8]> {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(25))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func publish(_ packet: [UInt8]) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(packet) }
    }

    func finish() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}

/// A keyframe request from the broadcaster (a new or lagging subscriber), read by the encoder thread.
private final class KeyframeFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    func take() -> Bool { flag.exchange(false, ordering: .relaxed) }
}
