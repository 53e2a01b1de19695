import IntercomPlatform
import Synchronization
import WebRTCCore

/// One WebRTC peer connection to one remote peer (SYSTEM.md §5): ICE on libnice, DTLS-SRTP on OpenSSL and
/// libsrtp2, BUNDLE and rtcp-mux on a single component, VP8 and Opus out, Opus (and optionally VP8) in.
///
/// Usage as answerer: `acceptOffer(sdp)` → send the answer → `startGathering()`; trickle each
/// `.localCandidate` event out and feed the peer's candidates to `addRemoteCandidate`. As offerer:
/// `createOffer()` → send it → `startGathering()` → `acceptAnswer(sdp)`. Then `sendVideo`/`sendAudio`
/// once `.stateChanged(.connected)` arrives, and always `close()` at the end (it stops the tasks, sends
/// DTLS close_notify and releases libnice).
///
/// Threads: the actor runs on the cooperative pool but never blocks it. libnice runs on its own GLib
/// thread (`ICEAgent`), encoders on theirs; OpenSSL and libsrtp calls here are short CPU work on
/// in-memory buffers. Outgoing datagrams are queued on the ICE agent (`ICEAgent.enqueue`), which hands
/// them to libnice in order, in bursts, so packets leave in the order they were protected.
public actor PeerConnection {
    public nonisolated let role: NegotiationRole
    /// Candidates, state changes, keyframe requests, reports. One consumer; finishes on `close()`.
    public nonisolated let events: AsyncStream<PeerConnectionEvent>
    /// Audio packets and reassembled video frames from the peer, as a stream (for tools and tests; the agent
    /// uses `onMedia`). Reading it replaces the consumer; it keeps the newest 512 and finishes on `close()`.
    public nonisolated var receivedMedia: AsyncStream<ReceivedMedia> {
        let (stream, sink) = AsyncStream.makeStream(of: ReceivedMedia.self, bufferingPolicy: .bufferingNewest(512))
        mediaConsumer.withLock { $0 = MediaConsumer(deliver: { sink.yield($0) }, finish: { sink.finish() }) }
        return stream
    }

    /// Hands each received packet and frame to `handler` on the peer's actor as it is unprotected: no task
    /// and no stream between the datagram and its consumer (issue #21: one wake-up less per packet). The
    /// handler must be quick (a lock, a queue); it replaces any earlier consumer. Media before it is set is dropped.
    public nonisolated func onMedia(_ handler: @escaping @Sendable (ReceivedMedia) -> Void) {
        mediaConsumer.withLock { $0 = MediaConsumer(deliver: handler, finish: {}) }
    }
    /// Our SHA-256 certificate fingerprint, as the local description carries it.
    public nonisolated let localFingerprint: String

    let eventSink: AsyncStream<PeerConnectionEvent>.Continuation
    /// The one consumer of received media (`onMedia`, or the `receivedMedia` stream built on it).
    let mediaConsumer = Mutex<MediaConsumer?>(nil)
    struct MediaConsumer {
        let deliver: @Sendable (ReceivedMedia) -> Void
        let finish: @Sendable () -> Void
    }
    let ice: ICEAgent
    let certificate: DTLSCertificate
    let configuration: PeerConnectionConfiguration

    var local: SDPLocalEndpoint
    var localDescription: SessionDescription?
    var session: NegotiatedSession?
    var bundleMid = "0"
    var bundleIndex = 0
    var dtls: DTLSEndpoint?
    var srtp: SRTPSession?
    var iceState = ICEConnectionState.new
    var dtlsPhase = DTLSPhase.new
    var state = PeerConnectionState.new
    var failure: PeerConnectionError?
    var video: OutboundVideoStream?
    var audio: OutboundAudioStream?
    var history: RetransmissionBuffer
    var keyframes: KeyframeRequestLimiter
    var pendingKeyframeReason = KeyframeRequestReason.pictureLoss
    var feedback = RTCPFeedbackInterpreter(videoSSRC: nil, audioSSRC: nil)
    var inboundStatistics: [UInt32: ReceiveStatistics] = [:]
    var depacketizer = VP8Depacketizer()
    /// Gaps in the peer's video, NACKed every `nackInterval` (RFC 4585 §6.2.1).
    var videoLosses = NACKGenerator()
    var remoteVideoSSRC: UInt32?
    var nextNACK = Duration.zero
    /// When the peer was last heard from (the inactivity timeout).
    var inactivity: InactivityWatch
    /// Our own PLIs to the peer's video sender after a loss, rate-limited like the encoder side.
    var pictureLossRequests: KeyframeRequestLimiter
    var remoteCredentialsApplied = false
    /// Our ICE restart offer until the peer answers it (`restartICE`).
    var restartOffer: SessionDescription?
    /// The peer's candidates given to libnice, newest last (at most `rememberedRemoteCandidates`): an ICE restart
    /// makes libnice forget them, including those the peer trickled before its re-offer reached us.
    var remoteCandidateLines: [String] = []
    static let rememberedRemoteCandidates = 64
    var pendingRemoteCandidates: [String] = []
    var pendingRemoteEndOfCandidates = false
    /// `.local` candidates being resolved (`addRemote`), and whether the peer's end-of-candidates waits for them.
    var pendingResolutions = 0
    var endOfCandidatesAfterResolutions = false
    var nextReport = Duration.zero
    var stats = PeerConnectionStatistics()
    var tasks: [Task<Void, Never>] = []
    /// The timer task that runs `tick` at `timerDeadline` (`PeerConnection+Timer.swift`); `timerGeneration`
    /// tells a superseded one, already past its sleep, not to tick.
    var timerTask: Task<Void, Never>?
    var timerDeadline = Duration.zero
    var timerGeneration: UInt64 = 0
    var isClosed = false

    /// Creates the ICE agent (controlling when offering) and fresh random SSRCs; nothing is sent or
    /// gathered yet.
    public init(
        role: NegotiationRole, certificate: DTLSCertificate,
        configuration: PeerConnectionConfiguration = PeerConnectionConfiguration()
    ) async throws(PeerConnectionError) {
        let agent: ICEAgent
        do {
            agent = try await ICEAgent(configuration: ICEAgentConfiguration(
                controlling: role == .offerer, stunServer: configuration.stunServer,
                turnServer: configuration.turnServer, localAddresses: configuration.localAddresses))
        } catch {
            throw .ice(call: "init", error)
        }
        var generator = SystemRandomNumberGenerator()
        var local = SDPLocalEndpoint.random(fingerprint: FingerprintSelection.local(certificate), using: &generator)
        let credentials = agent.localCredentials
        local.iceUfrag = credentials.ufrag
        local.icePassword = credentials.pwd
        self.role = role
        self.ice = agent
        self.certificate = certificate
        self.configuration = configuration
        inactivity = InactivityWatch(timeout: configuration.inactivityTimeout)
        self.local = local
        self.localFingerprint = certificate.fingerprint
        history = RetransmissionBuffer(capacity: configuration.retransmissionHistory)
        keyframes = KeyframeRequestLimiter(minimumInterval: configuration.keyframeRequestInterval)
        pictureLossRequests = KeyframeRequestLimiter(minimumInterval: configuration.keyframeRequestInterval)
        (events, eventSink) = AsyncStream.makeStream(of: PeerConnectionEvent.self, bufferingPolicy: .unbounded)
    }

    /// The current counters.
    public var statistics: PeerConnectionStatistics {
        var snapshot = stats
        snapshot.state = state
        snapshot.sendErrors = stats.sendErrors + ice.unsentDatagrams
        snapshot.videoPacketsSent = UInt64(video?.counters.packetCount ?? 0)
        snapshot.videoFramesSent = video?.framesSent ?? 0
        snapshot.audioPacketsSent = UInt64(audio?.counters.packetCount ?? 0)
        return snapshot
    }

    public var connectionState: PeerConnectionState { state }

    /// The monotonic clock every sans-IO part gets its `now` from.
    nonisolated func now() -> Duration { MonotonicClock.now() }

    /// Starts the ICE event pump, the datagram pump and the timer. Idempotent.
    func startTasks() {
        guard tasks.isEmpty, !isClosed else { return }
        let ice = self.ice
        tasks.append(Task {
            for await event in ice.events { self.handle(event) }
        })
        tasks.append(Task {
            for await datagram in ice.datagrams { self.receive(datagram) }
        })
        wakeTimer(by: now())
    }

    /// Gathers local candidates (each arrives as `.localCandidate`). Call after the local description
    /// went out, so the peer never gets a candidate before the description it belongs to.
    public func startGathering() async throws(PeerConnectionError) {
        guard !isClosed else { throw .closed }
        do { try await ice.startGathering() } catch { throw .ice(call: "startGathering", error) }
    }

    /// One trickled remote candidate (`candidate:…`), or nil for end-of-candidates. Candidates arriving
    /// before the remote description are kept until it is applied. An mDNS `.local` one is resolved in the
    /// background (`.mdnsCandidate` tells how it went); unparseable ones throw and can be ignored by the caller.
    public func addRemoteCandidate(_ candidate: String?) async throws(PeerConnectionError) {
        guard !isClosed else { throw .closed }
        guard remoteCredentialsApplied else {
            if let candidate { pendingRemoteCandidates.append(candidate) } else { pendingRemoteEndOfCandidates = true }
            return
        }
        do {
            if let candidate { try await addRemote(candidate) } else { try await remoteCandidatesComplete() }
        } catch {
            throw .ice(call: candidate == nil ? "remoteGatheringDone" : "addRemoteCandidate", error)
        }
    }

    /// Hangs up: DTLS close_notify, the remaining datagrams, then libnice (TURN released). Idempotent.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        if let dtls, dtlsPhase == .connected || dtlsPhase == .handshaking {
            dtls.close()
            while let datagram = dtls.pollTransmit() { transmit(datagram) }
        }
        await ice.flush()
        for task in tasks { task.cancel() }
        timerTask?.cancel()
        timerTask = nil
        await ice.close()
        srtp = nil
        if dtlsPhase != .failed { dtlsPhase = .closed }
        iceState = .closed
        updateState()
        eventSink.finish()
        mediaConsumer.withLock { $0.take() }?.finish()
    }

    // MARK: - Shared helpers

    func transmit(_ datagram: [UInt8]) {
        stats.bytesSent += UInt64(datagram.count)
        let isDTLS = if case .dtls = DatagramClass(classifying: datagram) { true } else { false }
        ice.enqueue(datagram, retryIfUnsent: isDTLS)
    }

    func fail(_ error: PeerConnectionError) {
        if failure == nil { failure = error }
        dtlsPhase = .failed
        updateState()
    }

    func updateState() {
        let next = PeerConnectionState(ice: iceState, dtls: dtlsPhase)
        guard next != state, !state.isTerminal else { return }
        state = next
        eventSink.yield(.stateChanged(next, next == .failed ? failure : nil))
    }

    /// Asks our encoder for a keyframe, at most once per `keyframeRequestInterval`.
    func requestKeyframe(_ reason: KeyframeRequestReason) {
        guard video != nil else { return }
        if keyframes.request(now: now()) {
            eventSink.yield(.keyframeNeeded(reason))
        } else {
            pendingKeyframeReason = reason
            wakeTimer(by: nextTimerDeadline(now: now()))
        }
    }
}
