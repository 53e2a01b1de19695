import Foundation
import IntercomAgent
import IntercomTestSupport
import Logging
import Media
import ServiceLifecycle
import Synchronization
import Testing

/// The production `MediaService` under a real service group: camera faults, the placeholder, READY.
@Suite(.timeLimit(.minutes(1))) struct MediaServiceTests {
    static let logger = Logger(label: "media-service-test")

    /// A small, fast pipeline whose camera is `makeSource`; no microphone.
    static func settings(_ makeSource: @escaping @Sendable () -> any VideoSource) -> MediaService.Settings {
        var settings = MediaService.Settings(width: 160, height: 120, fps: 15, bitrateKbps: 150, makeSource: makeSource)
        settings.microphone = .silence
        return settings
    }

    /// Runs `media` in a service group for the body, needed by the test throughout, then shuts the group down
    /// gracefully.
    static func running(_ media: MediaService, _ body: () async throws -> Void) async throws {
        media.setDemand("test", wanted: true)
        let group = ServiceGroup(configuration: .init(services: [.init(service: media)], logger: logger))
        let running = Task { try await group.run() }
        do {
            try await body()
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// When each encoded frame arrived, in seconds since the subscription, until `count` or `seconds`.
    static func arrivals(_ media: MediaService, count: Int, within seconds: Double) async -> [Double] {
        let subscription = media.video.subscribe(bufferDepth: 8)
        let start = ContinuousClock.now
        var times: [Double] = []
        for await _ in subscription.frames {
            let elapsed = ContinuousClock.now - start
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            if times.count >= count || times.last! > seconds { break }
        }
        subscription.cancel()
        return times
    }

    /// A camera unplugged mid-stream (ENODEV from DQBUF, then two failing opens while the node is gone) and
    /// back: `ReopeningVideoSource` inside the service reopens it and frames resume within 5 s. Meanwhile the
    /// calls get the last picture, dimmed, twice a second (the video never stalls), and the agent hears of
    /// the loss and the recovery (its `/health` and `STATUS=` say "camera lost" in between).
    @Test func aCameraUnpluggedAndBackKeepsThePictureComingAndIsReported() async throws {
        let ready = ReadyFlag()
        let changes = Mutex<[CameraCondition]>([])
        let media = MediaService(
            settings: Self.settings {
                FaultInjectingVideoSource(
                    wrapping: TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15)),
                    failAfterFrames: 30, failingOpens: 2)
            },
            logger: Self.logger, onCameraChange: { lost in changes.withLock { $0.append(lost) } }, onReady: { ready.set() })
        try await Self.running(media) {
            let times = await Self.arrivals(media, count: 60, within: 25)
            #expect(times.count == 60, "only \(times.count) frames in 25 s")
            let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
            // 15 fps: frames 67 ms apart; while the camera is away (backoff 0.25 + 0.5 + 1 s) placeholders come
            // every 0.5 s. Without them the stream would pause for the whole backoff, 1.75 s at least; a gap under
            // 1.6 s leaves room for the hiccups of a loaded unit stage (1.27 s seen once in CI, on the consumer's
            // side of the stream).
            let placeholderGaps = gaps.filter { $0 > 0.35 && $0 < 0.8 }
            #expect(placeholderGaps.count >= 2, "no placeholder frames while the camera was away: \(gaps.filter { $0 > 0.2 })")
            #expect((gaps.max() ?? 0) < 1.6, "the video stalled: \(gaps.filter { $0 > 0.2 })")
            #expect(ready.isSet, "READY was not reported after the first frame")
            // Each of the pipeline's threads has its name where `top -H` reads it.
            let names = kernelThreadNames()
            for name in ["intercom-camera", "intercom-vp8", "intercom-opus"] {
                #expect(names.contains(name), "no thread \(name) in \(names)")
            }
        }
        #expect(media.framesEncoded >= 60)
        #expect(media.cameraLossCount == 1 && media.cameraRecoveryCount == 1)
        #expect(changes.withLock { $0 } == [.lost, .working])
    }

    /// A camera that cannot be opened at all is a logged fault: the test pattern is sent instead and READY
    /// still comes, so the device answers calls with a picture rather than never becoming ready. The agent
    /// hears of it (`/health` warns `camera_failed`), once.
    @Test func aCameraThatCannotBeOpenedFallsBackToTheTestPatternAndStillReportsReady() async throws {
        let ready = ReadyFlag()
        let changes = Mutex<[CameraCondition]>([])
        let media = MediaService(
            settings: Self.settings { V4L2CaptureSource(path: "/nonexistent/video-for-test", width: 160, height: 120) },
            logger: Self.logger, onCameraChange: { condition in changes.withLock { $0.append(condition) } },
            onReady: { ready.set() })
        try await Self.running(media) {
            let times = await Self.arrivals(media, count: 15, within: 5)
            #expect(times.count == 15, "only \(times.count) placeholder frames in 5 s")
            #expect(ready.isSet)
        }
        #expect(changes.withLock { $0 } == [.failed])
    }

    /// A camera that failed to open at the first media start and opens at a later one (plugged in, a driver
    /// loaded late) clears the fault when it delivers.
    @Test func aCameraThatFailedAndOpensAtALaterStartClearsTheFault() async throws {
        let opens = Atomic<Int>(0)
        let ready = ReadyFlag()
        let changes = Mutex<[CameraCondition]>([])
        var settings = Self.settings { () -> any VideoSource in
            if opens.add(1, ordering: .relaxed).oldValue == 0 {
                return V4L2CaptureSource(path: "/nonexistent/video-for-test", width: 160, height: 120)
            }
            return TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15))
        }
        settings.idleStopDelay = .milliseconds(200)
        let media = MediaService(settings: settings, logger: Self.logger,
                                 onCameraChange: { condition in changes.withLock { $0.append(condition) } },
                                 onReady: { ready.set() })
        let group = ServiceGroup(configuration: .init(services: [.init(service: media)], logger: Self.logger))
        let running = Task { try await group.run() }
        defer { running.cancel() }

        // The startup run: the camera fails, the test pattern stands in, READY; then nobody needs media.
        try await Self.waitUntil("READY and the startup run's end", within: 5) { ready.isSet && !media.isRunning }
        #expect(changes.withLock { $0 } == [.failed])
        media.setDemand("call", wanted: true)
        try await Self.waitUntil("the camera to work at the next start", within: 5) { changes.withLock { $0.count } >= 2 }
        #expect(changes.withLock { $0 } == [.failed, .working])
        media.setDemand("call", wanted: false)
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Stopping the group ends every subscriber's stream (nothing waits for frames that will not come).
    @Test func gracefulShutdownFinishesTheSubscriptions() async throws {
        let media = MediaService(settings: Self.settings { TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15)) },
                                 logger: Self.logger)
        let subscription = media.video.subscribe()
        media.setDemand("test", wanted: true)
        let group = ServiceGroup(configuration: .init(services: [.init(service: media)], logger: Self.logger))
        let running = Task { try await group.run() }
        var iterator = subscription.frames.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        await group.triggerGracefulShutdown()
        try await running.value
        var remaining = 0
        while await iterator.next() != nil { remaining += 1 }
        #expect(remaining <= 1, "the stream did not finish at shutdown")
    }
}

extension MediaServiceTests {
    /// Nobody needs media: after the startup run (READY) the threads stop and nothing is encoded; a holder
    /// starts them again (frames within a second), and they stop once it lets go.
    @Test func mediaRunsOnlyWhileSomeoneNeedsIt() async throws {
        let ready = ReadyFlag()
        var settings = Self.settings { TestPatternSource(width: 160, height: 120, frameRate: FrameRate(15)) }
        settings.idleStopDelay = .milliseconds(200)
        let media = MediaService(settings: settings, logger: Self.logger, onReady: { ready.set() })
        let group = ServiceGroup(configuration: .init(services: [.init(service: media)], logger: Self.logger))
        let running = Task { try await group.run() }
        defer { running.cancel() }

        try await Self.waitUntil("READY and the startup run's end", within: 5) { ready.isSet && !media.isRunning }
        try await Self.waitUntil("the pipeline threads to end", within: 2) { media.pipelineThreads == 0 }
        let idleCount = media.framesEncoded
        try await Task.sleep(for: .milliseconds(600))
        #expect(media.framesEncoded == idleCount, "frames were encoded with nobody needing them")
        #expect(media.runsStarted == 1)

        let started = ContinuousClock.now
        media.setDemand("call", wanted: true)
        let times = await Self.arrivals(media, count: 5, within: 3)
        #expect(times.count == 5, "only \(times.count) frames after the demand")
        #expect(ContinuousClock.now - started < .seconds(2), "the cold start took \(ContinuousClock.now - started)")
        #expect(media.runsStarted == 2)

        // A second holder and a quick release and re-demand share the run.
        media.setDemand("viewer", wanted: true)
        media.setDemand("call", wanted: false)
        media.setDemand("viewer", wanted: false)
        media.setDemand("viewer", wanted: true)
        try await Task.sleep(for: .milliseconds(400))
        #expect(media.isRunning)
        #expect(media.runsStarted == 2)
        #expect(media.pipelineThreads == 3, "camera, VP8 and Opus")
        media.setDemand("viewer", wanted: false)
        try await Self.waitUntil("the threads to stop after the last holder", within: 3) {
            !media.isRunning && media.pipelineThreads == 0
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    static func waitUntil(_ what: String, within seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out after \(seconds) s waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Whether `onReady` ran.
final class ReadyFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .relaxed) }
    var isSet: Bool { flag.load(ordering: .relaxed) }
}
