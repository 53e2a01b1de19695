import Foundation
import IntercomPlatform
import Logging
import Synchronization
import WebRTCCore

/// The audio of one SIP call (issue #18): plain RTP/AVP with PCMU or PCMA, symmetric RTP (RFC 4961) and
/// RFC 4733 digits in. One thread named `sip-rtp` polls the call's RTP socket and a wakeup pipe; the
/// microphone's frames wake it (so an idle call costs nothing), and it sends one 20 ms packet per frame.
/// RTCP (SR/RR and SDES, RFC 3550 §6) goes from the odd port above every `rtcpInterval`.
public final class SIPAudioCall: Sendable {
    /// The SDP answer to send in the 200 OK: c=/m= carry `localHost` and the bound RTP port.
    public let answer: String
    /// The bound RTP address (the answer's c=/m=).
    public let local: RTPSocketAddress
    let negotiated: SIPAudioAnswerer.Answer
    /// The offer's c=/m= address; nil for an unspecified one (0.0.0.0, `::`): nothing is sent before the latch.
    let offered: RTPSocketAddress?
    let socket: RTPSocket
    let rtcpSocket: RTPSocket
    /// The offer's RTCP address: the RTP port + 1 (RFC 3550 §11; `a=rtcp`, RFC 3605, is not read).
    let offeredRTCP: RTPSocketAddress?
    /// About this often (randomized ±50 %, RFC 3550 §6.2) one compound RTCP report is sent.
    let rtcpInterval: Duration
    let wakeup = WakeupPipe()
    let endpoints: any SIPAudioEndpoints
    let logger: Logger
    let inbox = Mutex(Inbox())
    let shared: Mutex<SIPAudioCounters>
    private let lifecycle = Mutex(Lifecycle.idle)
    /// A silence this long is reported as `.silent` (RFC 3550 does not say; 30 s is what PBXes use for RTP timeouts).
    let silenceTimeout: Duration
    /// The most microphone frames that wait for the thread (200 ms); older ones are dropped.
    static let inboxCapacity = 10

    struct Inbox {
        var frames: [SIPMicrophoneFrame] = []
        var stopping = false
    }

    private enum Lifecycle {
        case idle
        case running(waiters: [CheckedContinuation<Void, Never>])
        case ended
    }

    /// Answers `offer` with `codecs` (PCMU and PCMA only; the first the offer carries wins), binds an even
    /// RTP port on `localHost`. Throws `SIPAudioAnswerError` for an unusable offer (a 488), `SDPError` for an
    /// unparsable one, `SIPAudioCallError` for the socket.
    public init(offer: String, localHost: String, codecs: [SIPAudioCodec] = [.pcmu, .pcma],
                endpoints: any SIPAudioEndpoints, silenceTimeout: Duration = .seconds(30),
                rtcpInterval: Duration = .seconds(5), logger: Logger) throws {
        self.silenceTimeout = silenceTimeout
        self.rtcpInterval = rtcpInterval
        let session = try SessionDescription(parsing: offer)
        let (socket, rtcpSocket) = try RTPSocket.bindPair(host: localHost)
        let answerer = SIPAudioAnswerer(preference: codecs.filter { $0 != .opus }, address: localHost, port: socket.local.port,
                                        sessionID: String(UInt32.random(in: 1 ... .max)))
        let negotiated = try answerer.answer(session)
        let unspecified = ["0.0.0.0", "::"].contains(negotiated.remoteAddress) || negotiated.remotePort == 0
        offered = unspecified ? nil : try RTPSocketAddress(numericHost: negotiated.remoteAddress, port: negotiated.remotePort)
        self.socket = socket
        self.rtcpSocket = rtcpSocket
        offeredRTCP = offered.flatMap { $0.port < .max ? $0.withPort($0.port + 1) : nil }
        self.negotiated = negotiated
        local = socket.local
        answer = negotiated.session.serialized()
        self.endpoints = endpoints
        self.logger = logger
        shared = Mutex(SIPAudioCounters(codec: negotiated.codec.encodingName, remote: offered.map { "\($0)" } ?? "-"))
    }

    /// Starts sending the microphone (G.711 at 8 kHz, 20 ms packets, one SSRC) and playing what arrives.
    /// `onDigit` hears each RFC 4733 key press once; `onState` `.flowing` at the first RTP packet and
    /// `.silent` when nothing arrived for `silenceTimeout` (30 s; from the start too). Both run on the `sip-rtp` thread. Once only.
    public func start(onDigit: @escaping @Sendable (Character) -> Void,
                      onState: @escaping @Sendable (SIPAudioState) -> Void) {
        let begin = lifecycle.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .running(waiters: [])
            return true
        }
        guard begin else { return }
        let output = negotiated.direction.receives ? endpoints.claimSpeaker(codec: negotiated.codec) : nil
        if negotiated.direction.sends {
            endpoints.attachMicrophone { [weak self] frame in self?.offer(frame) }
        }
        logger.info("SIP audio: \(negotiated.codec.encodingName) on \(local) to \(shared.withLock { $0.remote })",
                    metadata: ["direction": "\(negotiated.direction.rawValue)",
                               "telephoneEvent": "\(negotiated.telephoneEventPayloadType.map(String.init) ?? "-")"])
        NamedThread.start("sip-rtp") { [self] in
            var loop = SIPRTPLoop(call: self, output: output, onDigit: onDigit, onState: onState)
            loop.run()
            finish()
        }
    }

    /// Stops the thread and closes the socket; idempotent; returns when the thread is gone.
    public func stop() async {
        let wasIdle = lifecycle.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .ended
            return true
        }
        if wasIdle {
            socket.close()
            rtcpSocket.close()
            return
        }
        inbox.withLock { $0.stopping = true }
        wakeup.wake()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = lifecycle.withLock { state -> Bool in
                guard case .running(let waiters) = state else { return true }
                state = .running(waiters: waiters + [continuation])
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// Counters for the log line and tests.
    public var counters: SIPAudioCounters { shared.withLock { $0 } }

    /// A microphone frame for the thread; the oldest wait is dropped past `inboxCapacity`.
    func offer(_ frame: SIPMicrophoneFrame) {
        let first = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.frames.append(frame)
            if inbox.frames.count > Self.inboxCapacity { inbox.frames.removeFirst(inbox.frames.count - Self.inboxCapacity) }
            return inbox.frames.count == 1
        }
        // The thread drains the whole inbox per wakeup: one write per batch is enough.
        if first { wakeup.wake() }
    }

    /// The thread's end: the socket closes, the speaker and microphone are let go, `stop` returns.
    private func finish() {
        socket.close()
        rtcpSocket.close()
        endpoints.detach()
        let counters = self.counters
        logger.info("SIP audio ended", metadata: [
            "codec": "\(counters.codec)", "packetsSent": "\(counters.packetsSent)",
            "packetsReceived": "\(counters.packetsReceived)", "packetsDropped": "\(counters.packetsDropped)",
            "digits": "\(counters.digitsReceived)", "remote": "\(counters.remote)",
            "rtcpSent": "\(counters.rtcpSent)", "rtcpReceived": "\(counters.rtcpReceived)",
            "receivedLevel": "\(String(format: "%.1f", counters.receivedLevel)) dBFS",
        ])
        let waiters = lifecycle.withLock { state -> [CheckedContinuation<Void, Never>] in
            defer { state = .ended }
            if case .running(let waiters) = state { return waiters }
            return []
        }
        for waiter in waiters { waiter.resume() }
    }
}
