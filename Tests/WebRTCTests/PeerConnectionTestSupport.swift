import Synchronization
import WebRTC
import WebRTCCore

/// Everything one async stream delivered, with waits on conditions over it (woken by each new element,
/// never polled) that fail with `ICETestTimeout` at their deadline.
final class StreamRecorder<Element: Sendable>: Sendable {
    private struct Waiter {
        let id: Int
        let condition: @Sendable ([Element]) -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        var elements: [Element] = []
        var finished = false
        var waiters: [Waiter] = []
        var nextID = 0
    }
    private let state = Mutex(State())

    var elements: [Element] { state.withLock { $0.elements } }

    /// Records `stream` from a new task until it finishes.
    func record(_ stream: AsyncStream<Element>, onEach: @escaping @Sendable (Element) async -> Void = { _ in }) {
        Task {
            for await element in stream {
                await onEach(element)
                append(element)
            }
            finish()
        }
    }

    private func append(_ element: Element) {
        let ready = state.withLock { state in
            state.elements.append(element)
            let elements = state.elements
            let ready = state.waiters.filter { $0.condition(elements) }
            state.waiters.removeAll { waiter in ready.contains { $0.id == waiter.id } }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    private func finish() {
        let all = state.withLock { state in
            state.finished = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in all { waiter.continuation.resume() }
    }

    /// Returns once `condition` holds (or the stream finished, or the task was cancelled).
    private func until(_ condition: @escaping @Sendable ([Element]) -> Bool) async {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state in
                    if state.finished || condition(state.elements) || Task.isCancelled { return true }
                    state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            cancelled?.continuation.resume()
        }
    }

    /// Waits until `condition` holds over everything recorded, failing after `limit`.
    func wait(
        _ what: String, within limit: Duration = .seconds(10), _ condition: @escaping @Sendable ([Element]) -> Bool
    ) async throws {
        try await withTimeout(limit, what) { await self.until(condition) }
        guard condition(elements) else { throw ICETestTimeout(what: what + " (stream ended)") }
    }
}

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
    var audioPackets: [RTPPacket] { compactMap { if case .audio(let packet) = $0 { packet } else { nil } } }
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
    init(offererDrops: (@Sendable (RTPPacket) -> Bool)? = nil) async throws {
        let loopback = ["127.0.0.1"]
        offerer = try await PeerConnection(
            role: .offerer, certificate: try DTLSCertificate(commonName: "offerer"),
            configuration: PeerConnectionConfiguration(
                localAddresses: loopback, reportInterval: .milliseconds(200), outgoingPacketFilter: offererDrops))
        answerer = try await PeerConnection(
            role: .answerer, certificate: try DTLSCertificate(commonName: "answerer"),
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

    /// Offer → answer (optionally rewritten on its way back) → gathering on both sides.
    func negotiate(rewritingAnswer rewrite: @Sendable (String) -> String = { $0 }) async throws {
        let offer = try await offerer.createOffer()
        try await offerer.startGathering()
        let answer = try await answerer.acceptOffer(offer)
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
