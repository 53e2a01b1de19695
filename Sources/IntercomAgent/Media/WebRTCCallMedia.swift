import CallCore
import Foundation
import Logging
import Media
import ParseWire
import Synchronization
import WebRTC
import WebRTCCore

/// `CallMediaSession` over our WebRTC stack: one `PeerConnection` per peer, fed from the device's shared
/// `MediaService`. As the accepting side it offers (SYSTEM.md §3), otherwise it answers the offer
/// it was handed; candidates trickle both ways through the signaling room.
public struct WebRTCCallMediaFactory: CallMediaFactory, CameraSwitching {
    let pipeline: MediaService
    let metrics: AgentMetrics?
    let logger: Logger
    let decodesPeerMedia: Bool
    let onProgress: (@Sendable (CallMediaProgress) -> Void)?
    let onEnded: @Sendable (CallMediaReport) -> Void
    /// Every call of this factory's agent presents the same certificate (renewed weekly).
    let certificates = DTLSCertificateCache()

    /// `onEnded` hears what each peer's media sent and received when it stops (`intercomd call` prints it);
    /// `onProgress`, when given, the peer's video so far, once a second from the media's start to its stop.
    /// `decodesPeerMedia`: decode the peer's video and audio for the report even though nothing shows or
    /// plays it (a tool proving the streams decode); otherwise video is only counted from its headers and
    /// audio is decoded only by the speaker, when there is one.
    public init(pipeline: MediaService, metrics: AgentMetrics? = nil, logger: Logger, decodesPeerMedia: Bool = false,
                onProgress: (@Sendable (CallMediaProgress) -> Void)? = nil,
                onEnded: @escaping @Sendable (CallMediaReport) -> Void = { _ in }) {
        self.pipeline = pipeline
        self.metrics = metrics
        self.logger = logger
        self.decodesPeerMedia = decodesPeerMedia
        self.onProgress = onProgress
        self.onEnded = onEnded
    }

    public var cameras: (names: [String], active: String) { (pipeline.cameraNames, pipeline.activeCamera) }

    public func switchCamera(to name: String) throws(CameraSwitchError) { try pipeline.switchCamera(to: name) }

    public func makeSession(sessionID: String, peer: String) -> any CallMediaSession {
        WebRTCCallMedia(pipeline: pipeline, metrics: metrics, peer: peer, logger: logger, decodesPeerMedia: decodesPeerMedia,
                        certificates: certificates, onProgress: onProgress, onEnded: onEnded)
    }

    public func callsNeedMedia(_ needed: Bool) {
        pipeline.setDemand("calls", wanted: needed)
    }
}

/// What one peer's media carried, when it ended.
public struct CallMediaReport: Sendable, Equatable {
    public var videoFramesSent: UInt64
    public var audioPacketsSent: UInt64
    public var peerAudioPackets: Int
    /// RMS level in dBFS of the peer's decoded audio (−120 for none, or when nothing decoded it).
    public var peerAudioLevel: Double
    /// The dominant frequency of the peer's last half second of audio; nil when it was silent.
    public var peerAudioFrequency: Double?
    /// Seconds the peer spoke, from the levels its packets carried (RFC 6464); nil when they carried none.
    public var peerSpokeSeconds: Double? = nil
    /// Decoded, or only counted from their headers when the factory does not decode.
    public var peerVideoFramesDecoded: Int
    public var peerVideoFramesPerSecond: Double
    public var peerVideoWidth: Int
    public var peerVideoHeight: Int
}

/// The peer's video so far, while the call runs.
public struct CallMediaProgress: Sendable, Equatable {
    public var peerVideoFramesDecoded: Int
    /// The last decoded picture's mean luma (0…255); nil unless the factory decodes the peer's video.
    public var peerVideoMeanLuma: Double?
}

final class WebRTCCallMedia: CallMediaSession {
    private let pipeline: MediaService
    private let logger: Logger
    private let connection = Mutex<PeerConnection?>(nil)
    private let tasks = Mutex<[Task<Void, Never>]>([])
    private let callerAudio = AudioLevelMeter()
    private let metrics: AgentMetrics?
    private let peerMetrics: PeerMetrics?
    private let videoSubscription = Mutex<EncodedFrameSubscription?>(nil)
    private let speakerClaim = Mutex<UInt64?>(nil)
    /// This peer's key in the pipeline's `EncoderFeedback`.
    private let estimateKey: UInt64

    private let peerVideo: ReceivedVideoDecoder
    private let decodesPeerAudio: Bool
    private let onProgress: (@Sendable (CallMediaProgress) -> Void)?
    private let onEnded: @Sendable (CallMediaReport) -> Void

    private let certificates: DTLSCertificateCache
    /// Where our signals go (the room's socket), kept from `start` for a re-offer or a re-answer.
    private let signalOut = Mutex<(@Sendable (SignalPayload) async -> Void)?>(nil)

    init(pipeline: MediaService, metrics: AgentMetrics?, peer: String, logger: Logger, decodesPeerMedia: Bool,
         certificates: DTLSCertificateCache, onProgress: (@Sendable (CallMediaProgress) -> Void)?, onEnded: @escaping @Sendable (CallMediaReport) -> Void) {
        self.pipeline = pipeline
        self.certificates = certificates
        peerVideo = ReceivedVideoDecoder(decodes: decodesPeerMedia)
        decodesPeerAudio = decodesPeerMedia
        estimateKey = pipeline.makePeerKey()
        self.metrics = metrics
        peerMetrics = metrics?.peer(peer)
        self.logger = logger
        self.onProgress = onProgress
        self.onEnded = onEnded
    }

    func start(plan: MediaPlan, iceServers: [IceServer], early pending: [SignalPayload],
               signal: @escaping @Sendable (SignalPayload) async -> Void,
               state: @escaping @Sendable (MediaState) -> Void) async throws {
        var configuration = PeerConnectionConfiguration()
        configuration.useICEServers(iceServers.map { ($0.urls, $0.username, $0.credential) })
        // A party: send the camera and take the peer's video too (another intercom, or a browser with a
        // camera, shows itself; one without simply sends none). A view-only watcher gets the camera and
        // nothing else: no audio either way, nothing of its own to decode. A player (WHEP, `sendOnly`) gets the
        // camera and the microphone, and nothing it might send is taken.
        if plan.sendOnly {
            configuration.capabilities.videoDirection = .sendonly
            configuration.capabilities.audioDirection = plan.audio ? .sendonly : .inactive
        } else {
            configuration.capabilities.videoDirection = plan.audio ? .sendrecv : .sendonly
            if !plan.audio { configuration.capabilities.audioDirection = .inactive }
        }
        let role: NegotiationRole = plan.negotiation == .sendOffer ? .offerer : .answerer
        let peer = try await PeerConnection(role: role, certificate: try certificates.certificate(), configuration: configuration)
        connection.withLock { $0 = peer }
        signalOut.withLock { $0 = signal }
        watch(peer, plan: plan, signal: signal, state: state)
        switch role {
        case .offerer:
            await signal(.offer(sdp: try await peer.createOffer()))
        case .answerer:
            guard case .offer(let sdp)? = pending.first(where: { if case .offer = $0 { true } else { false } }) else {
                throw PeerConnectionError.invalidState(call: "acceptOffer", state: "no offer received")
            }
            await signal(.answer(sdp: try await peer.acceptOffer(sdp)))
        }
        try await peer.startGathering()
        for payload in pending {
            if case .offer = payload { continue }  // answered above
            await apply(payload, to: peer, role: role)
        }
    }

    func remote(_ payload: SignalPayload) async {
        guard let peer = connection.withLock({ $0 }) else { return }  // stopped
        await apply(payload, to: peer, role: peer.role)
    }

    /// An ICE restart with a new gathering (issue #20). As the offerer we re-offer; as the answerer we cannot
    /// (the peer restarts, e.g. a browser whose ICE failed), so it is only logged.
    func restartTransport(reason: String) async {
        guard let peer = connection.withLock({ $0 }), let signal = signalOut.withLock({ $0 }) else { return }
        guard peer.role == .offerer else {
            logger.notice("addresses changed (\(reason)); as the answering side the device waits for the peer to restart ICE")
            return
        }
        do {
            let offer = try await peer.restartICE()
            logger.notice("ICE restart: addresses changed (\(reason)); gathering again and re-offering")
            await signal(.offer(sdp: offer))
        } catch {
            logger.warning("ICE restart failed", metadata: ["error": "\(error)"])
        }
    }

    var peerSpokeSeconds: Double? {
        let speech = callerAudio.speech
        return speech.measuredPackets > 0 ? speech.spokenSeconds : nil
    }

    func stop() async {
        for task in tasks.withLock({ $0 }) { task.cancel() }
        if let claim = speakerClaim.withLock({ $0 }) { pipeline.speaker.release(claim) }
        pipeline.forget(peer: estimateKey)
        peerMetrics?.close()
        guard let peer = connection.withLock({ $0 }) else { return }
        let statistics = await peer.statistics
        metrics?.peerEnded(bytesSent: statistics.bytesSent,
                           framesDropped: UInt64(videoSubscription.withLock { $0?.droppedCount ?? 0 }) + statistics.videoFramesSkipped)
        let heard = callerAudio.takeSecond()
        let video = peerVideo.finish()
        let speech = callerAudio.speech
        let report = CallMediaReport(
            videoFramesSent: statistics.videoFramesSent, audioPacketsSent: statistics.audioPacketsSent,
            peerAudioPackets: heard.packets, peerAudioLevel: heard.level, peerAudioFrequency: callerAudio.dominantFrequency(),
            peerSpokeSeconds: peerSpokeSeconds,
            peerVideoFramesDecoded: video.framesDecoded, peerVideoFramesPerSecond: video.framesPerSecond,
            peerVideoWidth: video.width, peerVideoHeight: video.height)
        if let spoke = report.peerSpokeSeconds { metrics?.peerSpoke(seconds: spoke) }
        logger.info("call media ended", metadata: [
            "videoFramesSent": "\(report.videoFramesSent)", "audioPacketsSent": "\(report.audioPacketsSent)",
            "callerAudioPackets": "\(report.peerAudioPackets)",
            "callerAudioLevel": "\(String(format: "%.1f", report.peerAudioLevel)) dBFS",
            "callerAudioFrequency": "\(report.peerAudioFrequency.map { "\(Int($0)) Hz" } ?? "-")",
            "callerSpoke": "\(report.peerSpokeSeconds.map { String(format: "%.1f s", $0) } ?? "-")",
            "callerAudioLevelPackets": "\(speech.measuredPackets)",
            "callerVideoFrames": "\(video.framesDecoded)", "callerVideoUndecodable": "\(video.undecodable)",
            "callerVideoDecoded": "\(peerVideo.decodes)",
            "videoPacketsReceived": "\(statistics.videoPacketsReceived)", "videoFramesReceived": "\(statistics.videoFramesReceived)",
            "inboundErrors": "\(statistics.inboundErrors)", "nackedPackets": "\(statistics.nackedPackets)",
            "retransmissionsSent": "\(statistics.retransmissionsSent)",
            "keyframeRequestsReceived": "\(statistics.keyframeRequestsReceived)",
            "callerVideo": "\(video.width)x\(video.height) \(String(format: "%.1f", video.framesPerSecond)) fps",
        ])
        onEnded(report)
        await peer.close()
    }

    private func apply(_ payload: SignalPayload, to peer: PeerConnection, role: NegotiationRole) async {
        do {
            switch payload {
            case .answer(let sdp) where role == .offerer: try await peer.acceptAnswer(sdp)
            case .offer(let sdp) where role == .answerer:
                // The peer restarts ICE in the running session (its re-offer); the first offer came with `start`.
                let answer = try await peer.acceptOffer(sdp)
                await signalOut.withLock({ $0 })?(.answer(sdp: answer))
            case .candidate(let candidate): try await peer.addRemoteCandidate(candidate?.candidate)
            default: break
            }
        } catch {
            logger.warning("remote description or candidate refused", metadata: ["error": "\(error)"])
        }
    }

    /// Forwards candidates and state, follows the peer's bandwidth estimate and feeds the pipeline's
    /// video and audio to the connection once it is up.
    private func watch(_ peer: PeerConnection, plan: MediaPlan, signal: @escaping @Sendable (SignalPayload) async -> Void,
                       state: @escaping @Sendable (MediaState) -> Void) {
        let pipeline = self.pipeline
        let logger = self.logger
        let metrics = self.metrics, peerMetrics = self.peerMetrics
        let started = ContinuousClock.now
        let estimateKey = self.estimateKey
        let events = Task {
            var reportedUp = false
            for await event in peer.events {
                switch event {
                case .localCandidate(let candidate, let mid, let index):
                    await signal(.candidate(.init(candidate: candidate, sdpMid: mid, sdpMLineIndex: index)))
                case .localCandidatesComplete:
                    await signal(.candidate(nil))
                case .keyframeNeeded:
                    pipeline.requestKeyframe()
                case .bitrateEstimate(let bitsPerSecond):
                    pipeline.estimate(peer: estimateKey, bitsPerSecond: Int(bitsPerSecond))
                case .stateChanged(let now, let error):
                    if let error { logger.warning("media connection \(now.rawValue)", metadata: ["error": "\(error)"]) }
                    if now == .connected, !reportedUp {
                        reportedUp = true
                        state(.up)
                    } else if now == .failed {
                        state(error.flatMap(Self.failureReason).map(MediaState.failed) ?? .down)
                    } else if now == .closed {
                        state(.down)
                    }
                case .selectedPair(let local, let remote):
                    logger.info("media path: \(SelectedPairText.describe(local)) ↔ \(SelectedPairText.describe(remote))")
                case .mdnsCandidate(let resolution):
                    if let address = resolution.address, resolution.problem == nil {
                        logger.info("the peer's mDNS candidate \(resolution.name) is \(address)",
                                    metadata: ["resolvedIn": "\(resolution.elapsed.wholeMilliseconds) ms"])
                    } else {
                        logger.notice("the peer's mDNS candidate \(resolution.name) stays unresolved; its checks may still find it",
                                      metadata: ["reason": "\(resolution.problem ?? "-")"])
                    }
                case .receptionReport(let kind, let block):
                    peerMetrics?.received(block)
                    if kind == .video { pipeline.lossReport(peer: estimateKey, fractionLost: block.fractionLost) }
                }
            }
        }
        var running = [events]
        if let onProgress {
            let peerVideo = self.peerVideo
            running.append(Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    let video = peerVideo.progress
                    onProgress(CallMediaProgress(peerVideoFramesDecoded: video.framesDecoded, peerVideoMeanLuma: video.lastMeanLuma))
                }
            })
        }
        if let peerMetrics {
            running.append(Task {
                while !Task.isCancelled {
                    peerMetrics.sampleBytesSent(await peer.statistics.bytesSent)
                    try? await Task.sleep(for: .seconds(1))
                }
            })
        }
        if plan.video {
            let subscription = pipeline.video.subscribe(bufferDepth: 4)
            videoSubscription.withLock { $0 = subscription }
            running.append(Task {
                // A viewer's first frame is not the call's (the metric measures answer → first frame).
                var firstSent = plan.viewOnly
                for await frame in subscription.frames {
                    let outgoing = OutgoingVideoFrame(bytes: frame.bytes, rtpTimestamp: frame.rtpTimestamp,
                                                      isKeyframe: frame.isKeyframe)
                    let sent = (try? await peer.sendVideo(outgoing)) == true
                    if sent, !firstSent {
                        firstSent = true
                        metrics?.firstFrameSent(after: ContinuousClock.now - started)
                    }
                }
            })
        }
        if plan.audio {
            let packets = pipeline.audio.subscribe()
            running.append(Task {
                for await packet in packets { _ = try? await peer.sendAudio(packet) }
            })
        }
        // The peer's voice plays on the speaker when this peer has it; the speaker's decoder also feeds the
        // level meter, so nothing decodes twice. Without a speaker it is decoded only for a tool that asked
        // (`decodesPeerMedia`), else just counted. Its video, if it sends any, is counted (or decoded).
        let meter = callerAudio
        let speaker = pipeline.speaker
        let decodesAudio = decodesPeerAudio
        let claim = plan.audio && !plan.sendOnly ? speaker.claim(meter: decodesAudio ? nil : meter) : nil
        speakerClaim.withLock { $0 = claim }
        let peerVideo = self.peerVideo
        // On the peer's actor as each packet is unprotected (`onMedia`): each step only takes a lock.
        let decoder = decodesAudio ? PeerAudioDecoder() : nil
        peer.onMedia { item in
            switch item {
            case .audio(let packet, let level):
                if let level { meter.addIndicated(level.decibels, timestamp: packet.timestamp) }
                if let claim { speaker.enqueue(sequenceNumber: packet.sequenceNumber, opus: packet.payload, claim: claim) }
                if let decoder {
                    if let pcm = decoder.decode(packet.payload) { meter.add(pcm) }
                } else if claim == nil {
                    meter.countPacket()
                }
            case .videoFrame(let frame):
                peerVideo.enqueue(frame.data)
            }
        }
        tasks.withLock { $0 += running }
    }

    /// The call outcome's reason for a failed connection: ICE found no pair, or DTLS did not complete.
    static func failureReason(_ error: PeerConnectionError) -> CallFailureReason? {
        switch error {
        case .ice, .iceFailed: .iceFailed
        case .dtls, .unsupportedFingerprint: .dtlsFailed
        default: nil
        }
    }
}
