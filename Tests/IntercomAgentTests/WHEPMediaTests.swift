@testable import IntercomAgent
import Logging
import Media
import ServiceLifecycle
import Synchronization
import Testing
import WebRTC
import WebRTCCore

/// The real media path of a WHEP player, without aiortc: our own `PeerConnection` as the player (recvonly
/// video and audio, a complete offer), `WHEPViewers` over `CallMediaWHEPPlayerFactory` and the calls'
/// `WebRTCCallMediaFactory` on a running `MediaService`.
@Suite(.timeLimit(.minutes(1))) struct WHEPMediaTests {
    static let logger: Logger = {
        var logger = Logger(label: "whep-media-test")
        logger.logLevel = .critical
        return logger
    }()

    /// What the player saw.
    final class Tally: Sendable {
        let video = Atomic<Int>(0)
        let audio = Atomic<Int>(0)
        let connected = Atomic<Bool>(false)
        let gathered = Atomic<Bool>(false)
        let candidates = Mutex<[String]>([])
    }

    @Test("a player gets the shared encoder's VP8 and the microphone's Opus; media is on while it watches and off after")
    func playsTheSharedEncoder() async throws {
        var settings = MediaService.Settings(width: 160, height: 120, fps: 15, bitrateKbps: 150)
        settings.microphone = .testTone()
        let media = MediaService(settings: settings, logger: Self.logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: media)], logger: Self.logger))
        let running = Task { try await group.run() }
        // The startup run ends after its first frame: from then on only the player needs media.
        try await WHEPEndpointTests.eventually("the startup run ends") { media.runsStarted == 1 && !media.isRunning }
        let viewers = WHEPViewers(limit: 1, factory: CallMediaWHEPPlayerFactory(
            media: WebRTCCallMediaFactory(pipeline: media, logger: Self.logger)), logger: Self.logger
        ) { count in media.setDemand("whep", wanted: count > 0) }

        let player = try await PeerConnection(
            role: .offerer, certificate: try DTLSCertificate(),
            configuration: PeerConnectionConfiguration(
                // Every interface, like the device's side (libnice leaves out the loopback there).
                capabilities: MediaCapabilities(audioDirection: .recvonly, videoDirection: .recvonly)))
        let tally = Tally()
        let watching = [
            Task {
                for await event in player.events {
                    switch event {
                    case .localCandidate(let candidate, _, _): tally.candidates.withLock { $0.append(candidate) }
                    case .localCandidatesComplete: tally.gathered.store(true, ordering: .relaxed)
                    case .stateChanged(.connected, _): tally.connected.store(true, ordering: .relaxed)
                    default: break
                    }
                }
            },
            Task {
                for await item in player.receivedMedia {
                    switch item {
                    case .videoFrame: tally.video.add(1, ordering: .relaxed)
                    case .audio: tally.audio.add(1, ordering: .relaxed)
                    }
                }
            },
        ]
        // A complete offer, as a WHEP player sends it: gathered first, the candidates written in.
        let offer = try await player.createOffer()
        try await player.startGathering()
        try await WHEPEndpointTests.eventually("the player gathers") { tally.gathered.load(ordering: .relaxed) }
        let complete = try WHEPAnswer.withCandidates(offer, candidates: tally.candidates.withLock { $0 }, complete: true)
        let (id, answer) = try await viewers.open(offer: complete)
        #expect(answer.contains("a=sendonly") && !answer.contains("a=recvonly") && answer.contains("a=candidate:"))
        #expect(media.isRunning)
        try await player.acceptAnswer(answer)
        try await WHEPEndpointTests.eventually("connected, 15 video frames and 25 audio packets", within: .seconds(15)) {
            tally.connected.load(ordering: .relaxed) && tally.video.load(ordering: .relaxed) >= 15
                && tally.audio.load(ordering: .relaxed) >= 25
        }
        let (connected, video, audio) = (tally.connected.load(ordering: .relaxed), tally.video.load(ordering: .relaxed),
                                         tally.audio.load(ordering: .relaxed))
        #expect(connected && video >= 15 && audio >= 25, "connected \(connected), \(video) video frames, \(audio) audio packets")
        #expect(await viewers.close(id, reason: "test"))
        await player.close()
        try await WHEPEndpointTests.eventually("media off after the player left") { !media.isRunning }
        #expect(media.runsStarted == 2)
        for task in watching { task.cancel() }
        await group.triggerGracefulShutdown()
        try await running.value
    }
}
