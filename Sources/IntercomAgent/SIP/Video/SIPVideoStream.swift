import Glibc
import IntercomPlatform
import Logging
import Media
import Synchronization
import WebRTC
import WebRTCCore

/// The VP8 video of one SIP call (issue #18, RFC 7741 over RTP/AVP or AVPF, or SRTP with SDES keys): frames from the encoder
/// every WebRTC peer shares (`MediaService.video`, one encoder, fan-out) are packetized and sent on the
/// call's video RTP socket as they are encoded; a thread named `sip-video` reads the phone's RTCP (PLI and
/// FIR become keyframe requests, RFC 4585 §6.3.1, RFC 5104 §4.3.1), counts its video, latches both
/// destinations to where the phone's packets come from (RFC 4961) and sends an SR every `reportInterval`.
public final class SIPVideoStream: Sendable {
    public let answer: SIPVideoAnswerer.Answer
    let socket: RTPSocket
    let rtcpSocket: RTPSocket
    private let media: any SIPVideoSource
    private let logger: Logger
    private let holder: String
    private let wakeup = WakeupPipe()
    private let state: Mutex<State>
    private let lifecycle = Mutex(Lifecycle.idle)
    let reportInterval: Duration
    private static let nextHolder = Atomic<UInt64>(0)

    struct State {
        var outbound: OutboundVideoStream
        var destination: RTPSocketAddress?
        var rtcpDestination: RTPSocketAddress?
        var counters = SIPVideoCounters()
        var stopping = false
        /// The SDES keys' libsrtp session (RTP/SAVP video); nil for plain RTP. Used only under this lock:
        /// libsrtp contexts are not thread-safe, and the sender task and the `sip-video` thread both use it.
        var srtp: SRTPSession?
        /// What went out, as sent (protected under SRTP), for the phone's NACKs; nil when it asked for none.
        var history: RetransmissionBuffer?
    }

    /// About 2 s of 640x480 video at 800 kbit/s: a loss the phone notices later is not worth resending.
    static let historyPackets = 256

    private enum Lifecycle {
        case idle
        case running(sender: Task<Void, Never>?, subscription: EncodedFrameSubscription?, waiters: [CheckedContinuation<Void, Never>])
        case ended
    }

    /// Binds the video's even RTP port and the RTCP port above it on `host` (before the answer, which names the port).
    static func bindSockets(host: String) throws(SIPAudioCallError) -> (rtp: RTPSocket, rtcp: RTPSocket) {
        try RTPSocket.bindPair(host: host)
    }

    init(answer: SIPVideoAnswerer.Answer, sockets: (rtp: RTPSocket, rtcp: RTPSocket), media: any SIPVideoSource,
         reportInterval: Duration = .seconds(5), logger: Logger) throws {
        self.answer = answer
        socket = sockets.rtp
        rtcpSocket = sockets.rtcp
        self.media = media
        self.logger = logger
        self.reportInterval = reportInterval
        holder = "sip-video-\(Self.nextHolder.add(1, ordering: .relaxed).newValue)"
        let outbound = try OutboundVideoStream(
            ssrc: UInt32.random(in: 1 ... .max), payloadType: answer.payloadType, initialSequenceNumber: .random(in: 0 ... .max),
            initialPictureID: .random(in: 0 ... 0x7FFF), absoluteSendTimeID: nil)
        let destination = try? RTPSocketAddress(numericHost: answer.remoteAddress, port: answer.remotePort)
        let rtcpDestination = answer.remotePort < .max
            ? try? RTPSocketAddress(numericHost: answer.remoteAddress, port: answer.remotePort + 1) : nil
        var counters = SIPVideoCounters()
        counters.remote = destination.map { "\($0)" } ?? "-"
        counters.srtp = answer.srtp?.suite.rawValue ?? "off"
        let srtp = try answer.srtp?.session()
        state = Mutex(State(outbound: outbound, destination: destination, rtcpDestination: rtcpDestination, counters: counters,
                            srtp: srtp, history: answer.acceptsNACK ? RetransmissionBuffer(capacity: Self.historyPackets) : nil))
    }

    public var counters: SIPVideoCounters { state.withLock { $0.counters } }

    /// Starts sending (when the answer sends) and the `sip-video` thread. Once only.
    public func start() {
        var subscription: EncodedFrameSubscription?
        var sender: Task<Void, Never>?
        if answer.direction.sends {
            media.setDemand(holder, wanted: true)
            let frames = media.video.subscribe(bufferDepth: 4)
            subscription = frames
            sender = Task { [self] in
                for await frame in frames.frames { send(frame) }
            }
        }
        let begin = lifecycle.withLock { current -> Bool in
            guard case .idle = current else { return false }
            current = .running(sender: sender, subscription: subscription, waiters: [])
            return true
        }
        guard begin else {
            sender?.cancel()
            subscription?.cancel()
            return
        }
        logger.info("SIP video: VP8 on \(socket.local) to \(counters.remote)", metadata: [
            "direction": "\(answer.direction.rawValue)", "keyframeRequests": "\(answer.acceptsKeyframeRequests ? "PLI/FIR" : "-")",
        ])
        NamedThread.start("sip-video") { [self] in
            var loop = SIPVideoReceiveLoop(stream: self)
            loop.run()
            finish()
        }
    }

    /// Stops sending and the thread, closes the sockets; idempotent; returns when the thread is gone.
    public func stop() async {
        let running = lifecycle.withLock { current -> (Task<Void, Never>?, EncodedFrameSubscription?)? in
            switch current {
            case .idle:
                current = .ended
                return nil
            case .running(let sender, let subscription, _):
                return (sender, subscription)
            case .ended:
                return nil
            }
        }
        guard let (sender, subscription) = running else {
            socket.close()
            rtcpSocket.close()
            return
        }
        sender?.cancel()
        subscription?.cancel()
        state.withLock { $0.stopping = true }
        wakeup.wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lifecycle.withLock { current -> Bool in
                guard case .running(let sender, let subscription, let waiters) = current else { return true }
                current = .running(sender: sender, subscription: subscription, waiters: waiters + [continuation])
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// One encoded frame to the phone (on the sender task: a non-blocking `sendto` per packet).
    private func send(_ frame: EncodedFrame) {
        let now = MonotonicClock.now()
        let outgoing = OutgoingVideoFrame(bytes: frame.bytes, rtpTimestamp: frame.rtpTimestamp, isKeyframe: frame.isKeyframe)
        let requestKeyframe = state.withLock { state -> Bool in
            guard !state.stopping, let destination = state.destination else { return false }
            let skippedBefore = state.outbound.framesSkipped
            let packets: [RTPPacket]
            do {
                packets = try state.outbound.packets(for: outgoing, now: now)
            } catch {
                state.counters.sendErrors += 1
                return false
            }
            if packets.isEmpty { return state.outbound.framesSkipped > skippedBefore }
            state.counters.framesSent += 1
            for packet in packets {
                do {
                    var bytes = try packet.serialized()
                    if let srtp = state.srtp { bytes = try srtp.protectRTP(bytes) }
                    state.history?.store(bytes, sequenceNumber: packet.sequenceNumber)
                    try socket.send(bytes, to: destination)
                    state.outbound.sent(packet, wireLength: bytes.count, now: now)
                    state.counters.packetsSent += 1
                    state.counters.bytesSent += bytes.count
                } catch {
                    state.counters.sendErrors += 1
                }
            }
            state.counters.framesSkipped = Int(state.outbound.framesSkipped)
            return false
        }
        if requestKeyframe { media.requestKeyframe() }
    }

    // MARK: For the receive loop

    var wakeupDescriptor: Int32 { wakeup.readEnd }
    func drainWakeup() { wakeup.drain() }
    var isStopping: Bool { state.withLock { $0.stopping } }

    /// The phone's video datagram from `source`: unprotected under SRTP (one that fails authentication is
    /// counted in `srtpFailed` and changes nothing); a well-formed packet of the negotiated payload type is
    /// counted and its source becomes the destination (once).
    func receivedVideo(_ datagram: ArraySlice<UInt8>, from source: RTPSocketAddress) {
        state.withLock { state in
            var plain = Array(datagram)
            if let srtp = state.srtp {
                guard let unprotected = try? srtp.unprotectRTP(plain) else {
                    state.counters.srtpFailed += 1
                    return
                }
                plain = unprotected
            }
            guard let packet = try? RTPPacket(parsing: plain), packet.payloadType == answer.payloadType else { return }
            state.counters.packetsReceived += 1
            if !state.counters.latched {
                state.counters.latched = true
                state.destination = source
                state.counters.remote = "\(source)"
            }
        }
    }

    /// The phone's RTCP datagram from `source` (unprotected under SRTP; then the RTCP destination latches to
    /// it); the keyframe requests it holds.
    func receivedRTCP(_ datagram: ArraySlice<UInt8>, from source: RTPSocketAddress) {
        let parsed = state.withLock { state -> ([RTCPPacket], UInt32)? in
            var plain = Array(datagram)
            if let srtp = state.srtp {
                guard let unprotected = try? srtp.unprotectRTCP(plain) else {
                    state.counters.srtcpFailed += 1
                    return nil
                }
                plain = unprotected
            }
            guard let packets = try? RTCPPacket.parseCompound(plain[...]) else { return nil }
            state.counters.rtcpReceived += 1
            state.rtcpDestination = source
            return (packets, state.outbound.ssrc)
        }
        guard let (packets, ssrc) = parsed else { return }
        var interpreter = RTCPFeedbackInterpreter(videoSSRC: ssrc, audioSSRC: nil)
        let actions = interpreter.actions(for: packets)
        for case .retransmit(let sequenceNumbers) in actions { retransmit(sequenceNumbers) }
        let requests = actions.filter { if case .keyframe = $0 { true } else { false } }.count
        guard requests > 0 else { return }
        state.withLock { $0.counters.keyframeRequests += requests }
        media.requestKeyframe()
    }

    /// Resends what the history still holds of the NACKed packets, as first sent (RFC 4585 §6.2.1; same
    /// sequence number, so no RTX stream is needed; under SRTP the same protected bytes, which the phone's
    /// replay check accepts since it never received them).
    private func retransmit(_ sequenceNumbers: [UInt16]) {
        state.withLock { state in
            state.counters.nackedPackets += sequenceNumbers.count
            guard let history = state.history, let destination = state.destination else { return }
            for sequenceNumber in sequenceNumbers {
                guard let bytes = history.packet(for: sequenceNumber), (try? socket.send(bytes, to: destination)) != nil else { continue }
                state.counters.retransmissions += 1
            }
        }
    }

    /// The SR and SDES CNAME to send now (RFC 3550 §6.4.1), and where; nil before the first packet went out.
    func report(now: Duration) -> ([UInt8], RTPSocketAddress)? {
        state.withLock { state -> ([UInt8], RTPSocketAddress)? in
            guard let destination = state.rtcpDestination,
                  let sender = state.outbound.counters.senderReport(now: now, ntp: NTPTime.now())
            else { return nil }
            let ssrc = state.outbound.ssrc
            let cname = "intercom-\(String(ssrc, radix: 16))"
            guard var bytes = try? RTCPPacket.serializeCompound([.senderReport(sender), .sourceDescription(.cname(cname, ssrc: ssrc))])
            else { return nil }
            if let srtp = state.srtp {
                guard let protected = try? srtp.protectRTCP(bytes) else { return nil }
                bytes = protected
            }
            state.counters.rtcpSent += 1
            return (bytes, destination)
        }
    }

    private func finish() {
        socket.close()
        rtcpSocket.close()
        if answer.direction.sends { media.setDemand(holder, wanted: false) }
        let waiters = lifecycle.withLock { current -> [CheckedContinuation<Void, Never>] in
            defer { current = .ended }
            if case .running(_, _, let waiters) = current { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }
}
