import CallCore
import Foundation
import IntercomAgent
import IntercomTestSupport
import Logging
import Media
import ParseWire
import ServerTestSupport
import Synchronization
import Testing

/// `[audio] speak_messages` (issue #22): a text the caller sends during a call is said by espeak-ng on the
/// device's speaker, an ALSA `file` PCM here, mixed into the call's playback; the call goes on.
@Suite("Spoken messages: a received text said on the speaker", .serialized, .timeLimit(.minutes(1)))
struct SpokenMessageTests {
    /// A media session that, like `WebRTCCallMedia`, holds the speaker from its start to its stop (the
    /// caller's audio itself is silence here: no packets arrive), and reports media up on the peer's answer.
    final class SpeakerHoldingMedia: CallMediaSession, CallMediaFactory {
        let speaker: SpeakerPlayout
        let claim = Mutex<UInt64?>(nil)
        let stateSink = Mutex<(@Sendable (MediaState) -> Void)?>(nil)

        init(speaker: SpeakerPlayout) {
            self.speaker = speaker
        }

        func makeSession(sessionID: String, peer: String) -> any CallMediaSession { self }

        func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
                   signal: @escaping @Sendable (SignalPayload) async -> Void,
                   state: @escaping @Sendable (MediaState) -> Void) async throws {
            let claimed = speaker.claim()
            claim.withLock { $0 = claimed }
            stateSink.withLock { $0 = state }
            await signal(.offer(sdp: "v=0 scripted"))
        }

        func remote(_ payload: SignalPayload) async {
            if case .answer = payload, let state = stateSink.withLock({ $0 }) { state(.up) }
        }

        func stop() async {
            if let claimed = claim.withLock({ $0 }) { speaker.release(claimed) }
        }
    }

    static let logger: Logger = {
        var logger = Logger(label: "spoken-message-test")
        logger.logLevel = .critical
        return logger
    }()

    /// 100 ms windows of `samples` (48 kHz) and their levels in dBFS.
    static func windowLevels(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count - 4800, by: 4800).map { PCMAnalysis.rmsDecibels(samples[$0..<($0 + 4800)]) }
    }

    @Test("a text received in a call is acknowledged and then heard on the speaker: speech where there was silence")
    func textIsSpokenDuringTheCall() async throws {
        let directory = try TemporaryDirectory(prefix: "spoken")
        let output = directory.path("speaker.raw")
        let speaker = SpeakerPlayout(sink: .alsa(device: "doorspeaker",
                                                 configurationText: DeviceAudioTests.fileSpeaker(recordingInto: output)),
                                     logger: Self.logger)
        let metrics = AgentMetrics()
        let messageSpeaker = MessageSpeaker(speaker: speaker, metrics: metrics, logger: Self.logger)
        messageSpeaker.prepare()
        try await RunningServer.with { server in
            let media = SpeakerHoldingMedia(speaker: speaker)
            var call = try await CallCoordinatorTests.placeCall(server, policy: CallPolicy(answerMode: .auto), media: media,
                                                                messageSpeaker: messageSpeaker)
            guard case .peerJoined(let devicePeer) = try await CallCoordinatorTests.next(&call.events) else {
                throw TestFailure("the device did not join")
            }
            #expect(try await CallCoordinatorTests.next(&call.events) == .signal(from: devicePeer.peerId, .ringing))
            #expect(try await CallCoordinatorTests.next(&call.events) == .signal(from: devicePeer.peerId, .offer(sdp: "v=0 scripted")))
            let coordinator = call.coordinator
            await call.visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "in call") {
                if case .inCall = await coordinator.state { return true }
                return false
            }
            // Half a second of the call's silence first, then the message.
            try await Task.sleep(for: .milliseconds(500))
            let sent = ContinuousClock.now
            await call.visitor.send(.text(id: "m1", text: "Hello, I cannot speak.\nPlease open the door."), to: devicePeer.peerId)
            // The device's `media` signal (sent when media came up) may come first.
            var acknowledged = false
            for _ in 0..<4 where !acknowledged {
                let event = try await CallCoordinatorTests.next(&call.events)
                if case .refused = event { throw TestFailure("the text was refused: \(event)") }
                acknowledged = event == .signal(from: devicePeer.peerId, .textAck(id: "m1"))
            }
            #expect(acknowledged, "the device acknowledges the text")
            try await AgentBackendTests.eventually(within: 5, "the message is on its way to the speaker") {
                messageSpeaker.spokenCount == 1
            }
            let queued = ContinuousClock.now - sent
            // The speech plays in real time (about 2.5 s); the call's playback goes on around it.
            try await Task.sleep(for: .seconds(4))
            await call.visitor.send(.bye(.hangup), to: devicePeer.peerId)
            try await AgentBackendTests.eventually(within: 5, "idle again") { await coordinator.state == .idle }
            await call.visitor.close()
            try await Task.sleep(for: .milliseconds(100))
            let played = DeviceAudioTests.samples(try #require(FileManager.default.contents(atPath: output).map(Array.init)))
            let levels = Self.windowLevels(played)
            let firstSpeech = levels.firstIndex { $0 > -40 }
            let speechWindows = levels.filter { $0 > -40 }.count
            print("spoken message: text to speaker queue \(queued.wholeMilliseconds) ms; speaker recorded "
                  + "\(played.count / 48) ms, speech from \((firstSpeech ?? -1) * 100) ms, \(speechWindows * 100) ms above -40 dBFS, "
                  + "loudest \(String(format: "%.1f", levels.max() ?? -.infinity)) dBFS")
            #expect(played.count > 48_000 * 4, "\(played.count) samples recorded")
            // Silence before the message (nothing else plays), speech after it.
            #expect((firstSpeech ?? 0) >= 3, "speech began at window \(firstSpeech ?? -1)")
            #expect(speechWindows >= 10, "\(speechWindows) windows of speech")
            #expect((levels.max() ?? -.infinity) > -25, "loudest window \(levels.max() ?? -.infinity) dBFS")
            let exposition = String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self)
            #expect(exposition.contains("intercom_messages_spoken_total 1"), "\(exposition)")
        }
    }

    @Test("speech needs a call holding the speaker; too many messages waiting are dropped, not queued")
    func bounds() async throws {
        let directory = try TemporaryDirectory(prefix: "spoken-bounds")
        let speaker = SpeakerPlayout(sink: .alsa(device: "doorspeaker",
                                                 configurationText: DeviceAudioTests.fileSpeaker(recordingInto: directory.path("out.raw"))),
                                     logger: Self.logger)
        #expect(speaker.say([1, 2, 3]) == .noCall)
        let claim = try #require(speaker.claim())
        defer { speaker.release(claim) }
        #expect(speaker.say([Int16](repeating: 100, count: SpeakerPlayout.speechCapacity + 1)) == .full)
        #expect(speaker.say([1, 2, 3]) == .queued)
        let metrics = AgentMetrics()
        let messageSpeaker = MessageSpeaker(speaker: speaker, maximumWaiting: 1, metrics: metrics, logger: Self.logger)
        let long = String(repeating: "please open the door ", count: 20)
        for index in 0..<5 { messageSpeaker.speak(long, id: "m\(index)") }
        try await AgentBackendTests.eventually(within: 10, "the first message spoken") { messageSpeaker.spokenCount == 1 }
        try await Task.sleep(for: .milliseconds(300))
        #expect(messageSpeaker.spokenCount == 1)
        let exposition = String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self)
        #expect(exposition.contains("intercom_messages_not_spoken_total{reason=\"busy\"} 4"), "\(exposition)")
    }
}
