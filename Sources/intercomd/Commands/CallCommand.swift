import ArgumentParser
import CallCore
import Foundation
import Glibc
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import Logging
import ParseWire

/// `intercomd call`: this device calls someone through the backend, as its call button would, talks for a
/// while, hangs up, and reports what the other side sent: an installer's check of a device from another
/// machine, and the test in which two `intercomd` instances call each other (our stack on both ends).
struct CallCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call",
        abstract: "Call a device or user with this device's configuration, and report the video and audio that arrive.",
        discussion: """
            Exit status 0 when the call was answered and the other side's audio (and video, when it sends any) \
            arrived; 1 when not; 2 when the configuration cannot be read. SIGINT or SIGTERM during the call \
            hangs up at once and reports as usual.
            """
    )

    @Option(name: .long, help: "Configuration file (default: $INTERCOM_CONFIG or /etc/intercom/intercom.toml).")
    var config: String?

    @Option(name: .customLong("to"), help: "Call the nearest online device or user with this title.")
    var title: String?

    @Option(help: "Call this ActiveUsers userID.")
    var user: String?

    @Option(help: "How far to look for --to, in kilometres.")
    var radiusKm = 50.0

    @Option(help: "How long to stay in the call once it is up, in seconds.")
    var seconds = 10.0

    @Option(help: "Once connected, send this text message into the call (as the reply button sends a reply).")
    var message: String?

    @Flag(help: "Print the other side's video so far once a second (frames decoded, the last picture's mean luma).")
    var progress = false

    func validate() throws {
        guard (title == nil) != (user == nil) else { throw ValidationError("give exactly one of --to TITLE and --user ID") }
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds is 0…3600") }
        guard radiusKm > 0, radiusKm <= 20_000 else { throw ValidationError("--radius-km is 0…20000") }
        if let message {
            do throws(ParseWireError) {
                try SignalText.checkText(message, path: "--message")
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    func run() async throws {
        signal(SIGPIPE, SIG_IGN)
        let environment = ProcessInfo.processInfo.environment
        let configuration = try AgentConfigurationLoading.load(explicit: config, environment: environment, action: "calling")
        LoggingBootstrap.bootstrap(level: .init(rawValue: configuration.logging.level.rawValue) ?? .info)
        let logger = Logger(label: "intercomd call")
        let store = StateStore(directory: configuration.state.directory)
        try store.prepare()
        let (identity, _, _) = try store.loadOrCreateIdentity()
        let session = BackendSession(settings: configuration.backend, identity: identity, store: store, logger: logger,
                                     policy: RetryPolicy(maxAttempts: 2))
        let location = try? GeoPoint(latitude: configuration.identity.latitude, longitude: configuration.identity.longitude)
        let status = AgentStatusBoard(title: configuration.identity.title, location: location)
        var policy = CallPolicy.from(configuration.call)
        if let message { policy.replies = [message] }
        policy.callTarget = user.map { .user(id: $0) } ?? .nearest(title: title ?? "", radiusMeters: radiusKm * 1000)
        let pipeline = MediaService(settings: .from(configuration.video, audio: configuration.audio), logger: logger)
        pipeline.start()
        let (reports, reportSink) = AsyncStream<CallMediaReport>.makeStream()
        let started = ContinuousClock.now
        let printProgress: (@Sendable (CallMediaProgress) -> Void)?
        if progress {
            printProgress = { @Sendable update in Terminal.out(Self.describe(update, since: started)) }
        } else {
            printProgress = nil
        }
        let coordinator = CallCoordinator(
            policy: policy, session: session,
            mediaFactory: WebRTCCallMediaFactory(
                pipeline: pipeline, logger: logger, decodesPeerMedia: true,
                onProgress: printProgress
            ) { reportSink.yield($0) },
            status: status, deviceTitle: configuration.identity.title, logger: logger)
        defer { pipeline.stop() }
        do {
            _ = try await session.ensureLoggedIn()
        } catch {
            Terminal.error("intercomd call: cannot log in to \(configuration.backend.serverURL): \(error)")
            throw ExitCode(1)
        }
        await coordinator.begin()
        let hangupSignals = HangupSignals()
        defer { hangupSignals.cancel() }
        let dialled = ContinuousClock.now
        Terminal.out("calling \(title.map { "the nearest \"\($0)\"" } ?? "user \(user ?? "")")…")
        await coordinator.button(.callPress)
        let connected = await Self.waitFor(coordinator, limit: policy.ringTimeout + .seconds(15)) { state in
            if case .inCall = state { return true }
            return state.name == "idle" || state.name == "offline" || state.name == "fault"
        }
        if case .inCall = connected {
            Terminal.out("connected after \(Self.milliseconds(ContinuousClock.now - dialled)) ms; staying \(seconds) s")
            let talked = ContinuousClock.now
            if let message {
                await coordinator.button(.replyPress)
                Terminal.out("sent the message \"\(message.prefix(60))\"")
            }
            if await Self.stay(seconds: seconds, orUntil: hangupSignals.arrivals) {
                Terminal.out("signal: hanging up after \(Self.milliseconds(ContinuousClock.now - talked)) ms")
            }
            await coordinator.button(.hangupPress)
            _ = await Self.waitFor(coordinator, limit: .seconds(10)) { $0.name == "idle" }
        } else {
            Terminal.error("intercomd call: the call did not connect (state \(connected.name)); see the log above")
        }
        await coordinator.shutdown()
        reportSink.finish()
        var received: CallMediaReport?
        for await report in reports { received = report }
        guard case .inCall = connected, let report = received else { throw ExitCode(1) }
        Terminal.out(Self.describe(report))
        let videoArrived = report.peerVideoFramesDecoded > 0
        guard report.peerAudioPackets > 0, videoArrived else {
            Terminal.error("intercomd call: the other side's \(videoArrived ? "audio" : "video") did not arrive")
            throw ExitCode(1)
        }
    }

    static func describe(_ report: CallMediaReport) -> String {
        let frequency = report.peerAudioFrequency.map { "\(Int($0)) Hz" } ?? "silent"
        return """
            received video: \(report.peerVideoFramesDecoded) frames, \(report.peerVideoWidth)x\(report.peerVideoHeight) \
            at \(String(format: "%.1f", report.peerVideoFramesPerSecond)) fps
            received audio: \(report.peerAudioPackets) packets, \(String(format: "%.1f", report.peerAudioLevel)) dBFS, \(frequency)
            sent: \(report.videoFramesSent) video frames, \(report.audioPacketsSent) audio packets
            """
    }

    /// `progress: 12.0 s video 42 frames, mean luma 109.8` (seconds since the command started).
    static func describe(_ progress: CallMediaProgress, since started: ContinuousClock.Instant) -> String {
        let seconds = Double(milliseconds(ContinuousClock.now - started)) / 1000
        let luma = progress.peerVideoMeanLuma.map { String(format: ", mean luma %.1f", $0) } ?? ""
        return "progress: \(String(format: "%.1f", seconds)) s video \(progress.peerVideoFramesDecoded) frames\(luma)"
    }

    /// Sleeps `seconds`, or less when a hangup signal arrives first; true when one did.
    static func stay(seconds: Double, orUntil signals: AsyncStream<Void>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
                return false
            }
            group.addTask {
                for await _ in signals { return true }
                return false  // cancelled: the time was up
            }
            let signalled = await group.next() ?? false
            group.cancelAll()
            return signalled
        }
    }

    /// Polls the coordinator's state every 50 ms until `done` says so or `limit` passes; returns the last state.
    static func waitFor(_ coordinator: CallCoordinator, limit: Duration, _ done: (CallState) -> Bool) async -> CallState {
        let deadline = ContinuousClock.now + limit
        var state = await coordinator.state
        // The call button moved the machine to dialing before `button` returned: idle here means it ended.
        while !done(state), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            state = await coordinator.state
        }
        return state
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
