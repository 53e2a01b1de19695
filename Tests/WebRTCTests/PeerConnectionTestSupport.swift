import Synchronization
import WebRTC
import WebRTCCore

extension [PeerConnectionEvent] {
    var states: [PeerConnectionState] { compactMap { if case .stateChanged(let s, _) = $0 { s } else { nil } } }
    var failure: PeerConnectionError? {
        compactMap { if case .stateChanged(.failed, let error) = $0 { error } else { nil } }.first
    }
    var keyframeReasons: [KeyframeRequestReason] {
        compactMap { if case .keyframeNeeded(let reason) = $0 { reason } else { nil } }
    }
    var receptionReports: [(MediaKind, ReportBlock)] {
        compactMap { if case .receptionReport(let kind, let block) = $0 { (kind, block) } else { nil } }
    }
}

extension [ReceivedMedia] {
    var videoFrames: [VP8Frame] { compactMap { if case .videoFrame(let frame) = $0 { frame } else { nil } } }
    var audioPackets: [RTPPacket] { compactMap { if case .audio(let packet, _) = $0 { packet } else { nil } } }
}

/// Two `PeerConnection`s on 127.0.0.1 exchanging SDP and candidates directly (no signaling server):
/// `offerer` sends video and two-way audio, `answerer` is a kiosk that receives the video.
final class PeerConnectionLoopback: Sendable {
    let offerer: PeerConnection
    let answerer: PeerConnection
    let offererEvents = StreamRecorder<PeerConnectionEvent>()
    let answererEvents = StreamRecorder<PeerConnectionEvent>()
    let offererMedia = StreamRecorder<ReceivedMedia>()
    let answererMedia = StreamRecorder<ReceivedMedia>()

    /// `offererDrops` is the offerer's fault-injection filter (false = first transmission lost).
    /// `certificates`: the offerer's and the answerer's (a device reuses one across calls); new ones if nil.
    init(offererDrops: (@Sendable (RTPPacket) -> Bool)? = nil,
         certificates: (offerer: DTLSCertificate, answerer: DTLSCertificate)? = nil) async throws {
        let loopback = ["127.0.0.1"]
        offerer = try await PeerConnection(
            role: .offerer, certificate: try certificates?.offerer ?? DTLSCertificate(commonName: "offerer"),
            configuration: PeerConnectionConfiguration(
                localAddresses: loopback, reportInterval: .milliseconds(200), outgoingPacketFilter: offererDrops))
        answerer = try await PeerConnection(
            role: .answerer, certificate: try certificates?.answerer ?? DTLSCertificate(commonName: "answerer"),
            configuration: PeerConnectionConfiguration(
                capabilities: MediaCapabilities(videoDirection: .recvonly), localAddresses: loopback,
                reportInterval: .milliseconds(200)))
        Self.trickle(from: offerer, into: offererEvents, to: answerer)
        Self.trickle(from: answerer, into: answererEvents, to: offerer)
        offererMedia.record(offerer.receivedMedia)
        answererMedia.record(answerer.receivedMedia)
    }

    /// Records `source`'s events and hands its candidates to `peer`, the way signaling would.
    private static func trickle(from source: PeerConnection, into recorder: StreamRecorder<PeerConnectionEvent>, to peer: PeerConnection) {
        recorder.record(source.events) { event in
            switch event {
            case let .localCandidate(candidate, _, _): try? await peer.addRemoteCandidate(candidate)
            case .localCandidatesComplete: try? await peer.addRemoteCandidate(nil)
            default: break
            }
        }
    }

    /// The first offer and answer `negotiate` exchanged.
    var firstOffer: String? { descriptions.withLock { $0.offer } }
    var firstAnswer: String? { descriptions.withLock { $0.answer } }
    private let descriptions = Mutex<(offer: String?, answer: String?)>((nil, nil))

    /// Offer → answer (optionally rewritten on its way back) → gathering on both sides.
    func negotiate(rewritingAnswer rewrite: @Sendable (String) -> String = { $0 }) async throws {
        let offer = try await offerer.createOffer()
        try await offerer.startGathering()
        let answer = try await answerer.acceptOffer(offer)
        descriptions.withLock { $0 = (offer, answer) }
        try await answerer.startGathering()
        try await offerer.acceptAnswer(rewrite(answer))
    }

    func waitUntilConnected(within limit: Duration = .seconds(10)) async throws {
        for recorder in [offererEvents, answererEvents] {
            try await recorder.wait("both peer connections connected", within: limit) { $0.states.contains(.connected) }
        }
    }

    func close() async {
        await offerer.close()
        await answerer.close()
    }
}
