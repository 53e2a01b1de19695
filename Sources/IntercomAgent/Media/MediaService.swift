import Foundation
import IntercomPlatform
import Logging
import Media
import ServiceLifecycle
import Synchronization
import WebRTCCore

/// The device's one encoder pair (SYSTEM.md §5), as a service the agent's group starts and stops: the
/// camera (or test pattern) on a capture thread (`VideoCaptureThread` around `ReopeningVideoSource`, which
/// reopens a lost camera with backoff) hands its newest frame through a `LatestValueMailbox` to the VP8
/// thread; the microphone (or a test tone) goes to Opus on a third thread. Blocking capture, codec calls and
/// pacing sleeps stay off the cooperative pool. Video reaches every peer through `EncodedFrameBroadcaster`
/// without a copy per peer, audio through `AudioFanOut`; the caller's voice goes the other way, to `speaker`.
/// Every peer's REMB, loss reports and keyframe requests meet in one `EncoderFeedback`, which the VP8
/// thread reads before each frame.
///
/// Media runs only while someone needs it (`setDemand`): the calls from ring to end, a tool, a test. With
/// nobody, the threads stop (after `idleStopDelay`, so back-to-back calls share a run) and the device
/// costs nothing but its sockets. At start the service runs once until the first frame is encoded, which
/// proves the camera and encoder work before READY.
public final class MediaService: Service, Sendable {
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
        /// The device's cameras (`[video] sources`), the one filmed when media starts first; the caller can
        /// switch between them in a call (`MediaService.switchCamera`).
        public var cameras: [Camera]
        /// Opens the default camera (or the test pattern); called on the video thread, again after a device loss.
        public var makeSource: @Sendable () -> any VideoSource {
            get { cameras[0].makeSource }
            set { cameras[0].makeSource = newValue }
        }
        /// How long the threads keep running after the last holder let go: a call that follows at once
        /// reuses the run instead of reopening the camera.
        public var idleStopDelay: Duration = .seconds(1)

        public init(width: Int = 640, height: Int = 480, fps: Int = 30, bitrateKbps: Int = 800,
                    minimumBitrateKbps: Int = 150, makeSource: (@Sendable () -> any VideoSource)? = nil) {
            self.width = width
            self.height = height
            self.fps = fps
            self.bitrateKbps = bitrateKbps
            self.minimumBitrateKbps = minimumBitrateKbps
            cameras = [Camera(name: "camera", makeSource: makeSource ?? {
                TestPatternSource(width: width, height: height, frameRate: FrameRate(fps), timing: .realtime)
            })]
        }
    }

    /// One named camera: what opens it (on its capture thread, again after a device loss).
    public struct Camera: Sendable {
        public var name: String
        public var makeSource: @Sendable () -> any VideoSource

        public init(name: String, makeSource: @escaping @Sendable () -> any VideoSource) {
            self.name = name
            self.makeSource = makeSource
        }
    }

    public let settings: Settings
    public let video: EncodedFrameBroadcaster
    public let audio = AudioFanOut()
    public let speaker: SpeakerPlayout
    /// The speaker's far end in, the microphone's echo out; nil when echo cancellation is off.
    public let echoCanceller: EchoCanceller?
    let feedback: SharedEncoderFeedback
    /// Snapshot requests (issue #19), served from the frames the VP8 thread takes.
    private let snapshots = SnapshotTap()
    let demand = Mutex(Demand())
    private let nextPeer = Atomic<UInt64>(0)
    private let readyReported = Atomic<Bool>(false)
    private let encodedCount = Atomic<Int>(0)
    private let capturedCount = Atomic<Int>(0)
    private let liveThreads = Atomic<Int>(0)
    /// The camera delivered a frame at least once: from then on a camera missing at a run's start is waited
    /// for (it was unplugged) instead of being a configuration fault.
    private let cameraWorked = Atomic<Bool>(false)
    private let cameraLosses = Atomic<Int>(0)
    private let cameraRecoveries = Atomic<Int>(0)
    private let onReady: @Sendable () -> Void
    private let onCameraChange: @Sendable (CameraCondition) -> Void
    /// `onCameraChange(.failed)` was said and the camera has not delivered since.
    private let cameraFailing = Atomic<Bool>(false)
    let logger: Logger
    private let metrics: AgentMetrics?
    /// Which camera is filmed, and a switch waiting for its first frame.
    let selection: Mutex<CameraSelection>
    /// The last switch's request-to-first-frame time.
    let switchTimes = Mutex<Duration?>(nil)

    /// Who needs media now, and the run serving them.
    struct Demand {
        var holders: Set<String> = []
        var run: MediaRun?
        /// The latest run, stopped or not: the next one waits for its threads.
        var latest: MediaRun?
        var runsStarted = 0
        /// Bumped on every change, so a delayed stop that is no longer wanted does nothing.
        var generation: UInt64 = 0
        var shutDown = false
    }

    private enum DemandChange {
        case none
        case start(MediaRun, after: MediaRun?, holders: Set<String>)
        case stopLater(generation: UInt64)
    }

    /// `onReady` runs once: when the first video frame is encoded, or when video could not start (logged).
    /// `onCameraChange` hears the camera go (unplugged, a USB reset), fail to open, and work again.
    public init(settings: Settings, metrics: AgentMetrics? = nil, logger: Logger,
                onCameraChange: @escaping @Sendable (CameraCondition) -> Void = { _ in },
                onReady: @escaping @Sendable () -> Void = {}) {
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
        self.onReady = onReady
        self.onCameraChange = onCameraChange
        selection = Mutex(CameraSelection(names: settings.cameras.map(\.name)))
        echoCanceller = Self.makeEchoCanceller(settings, logger: logger)
        speaker = SpeakerPlayout(sink: settings.speaker, echoCanceller: echoCanceller, metrics: metrics, logger: logger)
        let feedback = SharedEncoderFeedback(EncoderFeedback(minimumKbps: min(settings.minimumBitrateKbps, settings.bitrateKbps),
                                                             maximumKbps: settings.bitrateKbps))
        self.feedback = feedback
        video = EncodedFrameBroadcaster(onKeyframeRequest: { feedback.withLock { $0.requestKeyframe() } })
    }

    /// Runs the pipeline until graceful shutdown.
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        stop()
    }

    /// Starts the service: one run until the first frame is encoded (or video fails), then media on demand.
    public func start() {
        guard !readyReported.load(ordering: .acquiring) else { return }
        setDemand("startup", wanted: true)
    }

    /// Stops every thread after its current frame; subscribers' streams finish and later demand is ignored.
    public func stop() {
        let run = demand.withLock { demand -> MediaRun? in
            demand.shutDown = true
            demand.holders = []
            defer { demand.run = nil }
            return demand.run
        }
        run?.stop()
        video.finish()
        audio.finish()
    }

    /// `holder` (a name, e.g. "calls") needs the camera, encoders and microphone, or no longer does. The
    /// threads start with the first holder and stop `idleStopDelay` after the last one let go.
    public func setDemand(_ holder: String, wanted: Bool) {
        let change = demand.withLock { demand -> DemandChange in
            guard !demand.shutDown else { return .none }
            if wanted { demand.holders.insert(holder) } else { demand.holders.remove(holder) }
            demand.generation &+= 1
            if !demand.holders.isEmpty {
                guard demand.run == nil else { return .none }
                demand.runsStarted += 1
                let run = MediaRun(number: demand.runsStarted)
                defer { (demand.run, demand.latest) = (run, run) }
                return .start(run, after: demand.latest, holders: demand.holders)
            }
            return demand.run == nil ? .none : .stopLater(generation: demand.generation)
        }
        switch change {
        case .none:
            break
        case .start(let run, let previous, let holders):
            logger.info("media on (\(holders.sorted().joined(separator: ",")))", metadata: ["run": "\(run.number)"])
            begin(run, after: previous)
        case .stopLater(let generation):
            // The next call films the default camera, also when it comes soon enough to share this run.
            filmDefaultCamera()
            let delay = settings.idleStopDelay
            guard delay > .zero else { return stopIfStillIdle(generation) }
            Task { [weak self] in
                try? await Task.sleep(for: delay)
                self?.stopIfStillIdle(generation)
            }
        }
    }

    /// Whether the pipeline's threads are running (someone needs media, or they are about to stop).
    public var isRunning: Bool { demand.withLock { $0.run != nil } }

    /// The pipeline threads alive now, across runs (0 once a stopped run's threads have ended).
    public var pipelineThreads: Int { liveThreads.load(ordering: .relaxed) }

    /// How many times the threads were started (the startup run included).
    public var runsStarted: Int { demand.withLock { $0.runsStarted } }

    private func stopIfStillIdle(_ generation: UInt64) {
        let run = demand.withLock { demand -> MediaRun? in
            guard demand.generation == generation, demand.holders.isEmpty else { return nil }
            defer { demand.run = nil }
            return demand.run
        }
        guard let run else { return }
        logger.info("media off: nobody needs it", metadata: ["run": "\(run.number)"])
        run.stop()
        // Once the run's threads are gone, the memory the call used goes back to the kernel: an idle device
        // stays as small as a fresh one.
        NamedThread.start("intercom-trim") {
            run.waitUntilFinished()
            MallocHeap.release()
        }
    }

    /// The next camera frame the encoder takes (while media runs), or nil after `timeout`.
    public func snapshotFrame(timeout: Duration) async -> I420Frame? {
        await snapshots.next(timeout: timeout)
    }

    // MARK: Peers' feedback

    /// A key for one peer's reports (`estimate`, `lossReport`, `forget`).
    public func makePeerKey() -> UInt64 { nextPeer.add(1, ordering: .relaxed).newValue }

    public func requestKeyframe() { feedback.withLock { $0.requestKeyframe() } }

    /// `peer`'s REMB: the encoder runs at the lowest rate over the peers (5 % headroom), within the range.
    public func estimate(peer: UInt64, bitsPerSecond: Int) {
        feedback.withLock { $0.estimate(peer: peer, bitsPerSecond: bitsPerSecond) }
    }

    /// One of `peer`'s video reception reports (its `fractionLost`), for the loss-based rate.
    public func lossReport(peer: UInt64, fractionLost: UInt8) {
        feedback.withLock { $0.lossReport(peer: peer, fractionLost: fractionLost) }
    }

    /// `peer` left: its reports no longer hold the others back.
    public func forget(peer: UInt64) {
        feedback.withLock { $0.remove(peer: peer) }
    }

    /// The rate the encoder runs at now.
    public var targetKbps: Int { feedback.withLock { $0.targetKbps } }

    public var framesEncoded: Int { encodedCount.load(ordering: .relaxed) }
    public var framesCaptured: Int { capturedCount.load(ordering: .relaxed) }

    // MARK: Threads

    private func threadStarting(_ run: MediaRun) {
        liveThreads.add(1, ordering: .relaxed)
        run.threadStarting()
    }

    private func threadEnded(_ run: MediaRun) {
        liveThreads.subtract(1, ordering: .relaxed)
        run.threadEnded()
    }

    /// Starts `run`'s capture, VP8 and Opus threads; each first waits for `previous`'s threads to end.
    private func begin(_ run: MediaRun, after previous: MediaRun?) {
        let generation = selection.withLock { $0.reset() }
        startCapture(run, after: previous, makeSource: settings.makeSource, name: "intercom-camera", isCamera: true,
                     generation: generation)
        threadStarting(run)
        NamedThread.start("intercom-vp8") { [self] in
            previous?.waitUntilFinished()
            encodeVideo(run)
            threadEnded(run)
        }
        threadStarting(run)
        NamedThread.start("intercom-opus") { [self] in
            previous?.waitUntilFinished()
            encodeAudio(run)
            threadEnded(run)
        }
    }

    /// Camera losses (unplug, USB reset, a dead stream) and recoveries since the agent started.
    public var cameraLossCount: Int { cameraLosses.load(ordering: .relaxed) }
    public var cameraRecoveryCount: Int { cameraRecoveries.load(ordering: .relaxed) }

    /// A capture thread around `ReopeningVideoSource`: a camera lost mid-run (unplug, USB reset) is reopened
    /// with backoff while its last picture, dimmed, keeps the calls' video alive twice a second. A camera
    /// that cannot be opened at all (before it ever worked), or fails otherwise, is a logged fault, and the
    /// test pattern takes its place for the rest of the run so calls still have a picture.
    /// `generation` is the camera selection's when the thread starts: after a switch its frames are dropped,
    /// and its end is no fault.
    func startCapture(_ run: MediaRun, after previous: MediaRun?,
                      makeSource: @escaping @Sendable () -> any VideoSource, name: String, isCamera: Bool,
                      generation: UInt64, replacing stopped: [VideoCaptureThread] = []) {
        threadStarting(run)
        let placeholder = ReopeningVideoSource.Placeholder(width: settings.width, height: settings.height)
        let thread = VideoCaptureThread(
            name: name,
            makeSource: { [self] in
                previous?.waitUntilFinished()
                // A switch: the cameras it replaces let go of their devices first (about one frame interval).
                for thread in stopped { _ = thread.join(timeout: .seconds(2)) }
                // Reopen attempts are a sysfs lookup and an open(2): every 2 s at most, so a replugged camera
                // is back within about 2 s of the kernel registering it.
                return ReopeningVideoSource(
                    wrapping: makeSource(), backoff: .init(maximum: .seconds(2)), placeholder: placeholder,
                    retriesFirstOpen: cameraWorked.load(ordering: .acquiring), onEvent: cameraEvent)
            },
            // The closures live as long as the thread, which the run stops: no cycle outlives it.
            deliver: { [self] frame in
                guard cameraFrameArrived(generation: generation) else { return }
                capturedCount.add(1, ordering: .relaxed)
                if !cameraWorked.load(ordering: .relaxed) { cameraWorked.store(true, ordering: .releasing) }
                if isCamera, cameraFailing.load(ordering: .relaxed), cameraFailing.exchange(false, ordering: .acquiringAndReleasing) {
                    logger.notice("camera works again")
                    onCameraChange(.working)
                }
                run.frames.put(frame)
            },
            onFinish: { [self] error in
                if let error, !run.isStopped, selection.withLock({ $0.generation }) == generation {
                    cameraFailed(error, in: run, generation: generation)
                }
                threadEnded(run)
            })
        run.adopt(thread)
    }

    private func cameraEvent(_ event: ReopeningVideoSource.Event) {
        switch event {
        case .lost(let error):
            logger.warning("camera lost; sending its last picture dimmed until it is back", metadata: ["error": "\(error)"])
            cameraLosses.add(1, ordering: .relaxed)
            metrics?.cameraLost()
            onCameraChange(.lost)
        case .reopenFailed(let error, let attempt):
            logger.debug("camera reopen failed", metadata: ["attempt": "\(attempt)", "error": "\(error)"])
        case .reopened(let attempts):
            logger.notice("camera back after \(attempts) reopen attempt(s)")
            cameraRecoveries.add(1, ordering: .relaxed)
            metrics?.cameraRecovered()
            onCameraChange(.working)
        }
    }

    private func cameraFailed(_ error: VideoSourceError, in run: MediaRun, generation: UInt64) {
        logger.error("camera fault; sending the test pattern instead", metadata: ["error": "\(error)"])
        if !cameraFailing.exchange(true, ordering: .acquiringAndReleasing) { onCameraChange(.failed) }
        let (width, height, fps) = (settings.width, settings.height, settings.fps)
        startCapture(run, after: nil,
                     makeSource: { TestPatternSource(width: width, height: height, frameRate: FrameRate(fps), timing: .realtime) },
                     name: "intercom-pattern", isCamera: false, generation: generation)
    }

    /// The first run's first frame (or its failure) proves the pipeline: READY, and the startup demand ends.
    private func reportReady() {
        guard !readyReported.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onReady()
        setDemand("startup", wanted: false)
    }

    private func encodeVideo(_ run: MediaRun) {
        do {
            var configuration = VP8EncoderConfiguration(width: settings.width, height: settings.height,
                                                        framesPerSecond: settings.fps,
                                                        targetBitrateKbps: settings.bitrateKbps)
            // A nearly static picture must not make rate control skip frames.
            configuration.dropFrameThreshold = 0
            let encoder = try VP8Encoder(configuration: configuration)
            while !run.isStopped {
                // A bounded wait, so a stop is noticed while the camera is away.
                guard let frame = run.frames.take(timeout: .milliseconds(500)) else { continue }
                snapshots.offer(frame)
                let (target, force) = feedback.withLock { ($0.targetKbps, $0.takeKeyframeRequest()) }
                if target != encoder.configuration.targetBitrateKbps { try encoder.setBitrate(kbps: target) }
                let encodeStart = ContinuousClock.now
                let encodeCPUStart = CPUClock.thread()
                let packets = try encoder.encode(frame, forceKeyframe: force)
                metrics?.frameEncoded(in: ContinuousClock.now - encodeStart, cpu: CPUClock.thread() - encodeCPUStart)
                for encoded in packets {
                    encodedCount.add(1, ordering: .relaxed)
                    video.publish(encoded)
                }
                if !packets.isEmpty { reportReady() }
            }
        } catch {
            logger.error("video pipeline stopped", metadata: ["error": "\(error)"])
            reportReady()  // calls go on without video; READY must not wait for a picture that cannot come
        }
    }

    private func encodeAudio(_ run: MediaRun) {
        do {
            let encoder = try OpusEncoder(configuration: OpusConfiguration())
            let samples = encoder.configuration.samplesPerFrame
            if case .alsa(let device, let configurationText) = settings.microphone {
                let microphone = MicrophoneCapture(device: device, configurationText: configurationText,
                                                   samplesPerFrame: samples, echoCanceller: echoCanceller,
                                                   logger: logger)
                while !run.isStopped {
                    let (pcm, xruns) = microphone.next()
                    if xruns > 0 { metrics?.audioXruns(xruns, direction: "capture") }
                    audio.publish(try encoder.encode(pcm))
                }
                return
            }
            let (hertz, amplitude) = if case .testTone(let hertz) = settings.microphone { (hertz, 0.3) } else { (440.0, 0.0) }
            var tone = ToneGenerator(frequency: hertz, amplitude: amplitude, sampleRate: 48_000, channels: 1)
            var deadline = MonotonicClock.now()
            while !run.isStopped {
                audio.publish(try encoder.encode(tone.next(frames: samples)))
                deadline += encoder.configuration.frameDuration
                MonotonicClock.sleep(until: deadline)
            }
        } catch {
            logger.error("audio pipeline stopped", metadata: ["error": "\(error)"])
        }
    }
}

/// The pipeline's one `EncoderFeedback`, shared by the peers' report handlers, the broadcaster's keyframe
/// requests and the VP8 thread.
final class SharedEncoderFeedback: Sendable {
    private let state: Mutex<EncoderFeedback>

    init(_ feedback: EncoderFeedback) {
        state = Mutex(feedback)
    }

    func withLock<Result: Sendable>(_ body: (inout EncoderFeedback) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
