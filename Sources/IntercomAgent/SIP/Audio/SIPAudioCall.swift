import Foundation
import IntercomPlatform
import Logging
import Synchronization
import WebRTCCore

/// The audio of one SIP call (issue #18): RTP/AVP with PCMU, PCMA or Opus (RFC 7587), or RTP/SAVP with SDES keys (RFC 4568)
/// as `srtp` allows, symmetric RTP (RFC 4961) and RFC 4733 digits in and out (`send(keys:)`). One thread named `sip-rtp` polls the
/// call's RTP socket and a wakeup pipe; the microphone's frames wake it (so an idle call costs nothing), and
/// it sends one 20 ms packet per frame.
/// RTCP (SR/RR and SDES, RFC 3550 §6) goes from the odd port above every `rtcpInterval`.
///
/// Answering (`init(offer:…)`) the negotiation is known at once; offering (`init(localHost:…)`, a call the
/// device places) it is known once `accept(answer:)` read the callee's answer, which must come before `start`.
public final class SIPAudioCall: Sendable {
    /// Our SDP: the answer to send in the 200 OK, or the offer to send in the INVITE; c=/m= carry `localHost`
    /// and the bound RTP port.
    public let localDescription: String
    /// The bound RTP address (the SDP's c=/m=).
    public let local: RTPSocketAddress
    let socket: RTPSocket
    let rtcpSocket: RTPSocket
    /// The offerer, for a call we place (its `accept` reads the answer); nil when answering.
    private let offerer: SIPAudioOfferer?
    private let negotiation: Mutex<SIPAudioNegotiation?>
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
        /// Keys to send as RFC 4733 events (`send(keys:)`), with the audio to let through first.
        var keys: [(keys: String, lead: Duration)] = []
        var stopping = false
    }

    private enum Lifecycle {
        case idle
        case running(waiters: [CheckedContinuation<Void, Never>])
        case ended
    }

    /// The answer to send in the 200 OK (answering).
    public var answer: String { localDescription }
    /// The offer to send in the INVITE (offering).
    public var offer: String { localDescription }

    /// The chosen codec and payload types, the remote RTP and RTCP addresses; set before `start`.
    var negotiated: SIPAudioAnswerer.Answer { negotiation.withLock { $0!.chosen } }
    /// The remote c=/m= address; nil for an unspecified one (0.0.0.0, `::`): nothing is sent before the latch.
    var offered: RTPSocketAddress? { negotiation.withLock { $0?.remote } }
    /// The remote RTCP address: the RTP port + 1 (RFC 3550 §11; `a=rtcp`, RFC 3605, is not read).
    var offeredRTCP: RTPSocketAddress? { negotiation.withLock { $0?.remoteRTCP } }

    /// Answers `offer` with `codecs` (in our order of preference: the first the offer carries wins) over RTP/AVP or
    /// RTP/SAVP as `srtp` allows, binds an even RTP port on `localHost`. Throws `SIPAudioAnswerError` for an
    /// unusable offer (a 488), `SDPError` for an unparsable one, `SIPAudioCallError` for the socket or keys.
    public init(offer: String, localHost: String, codecs: [SIPAudioCodec] = [.pcmu, .pcma], srtp: SIPSRTPMode = .off,
                endpoints: any SIPAudioEndpoints, silenceTimeout: Duration = .seconds(30),
                rtcpInterval: Duration = .seconds(5), logger: Logger) throws {
        self.silenceTimeout = silenceTimeout
        self.rtcpInterval = rtcpInterval
        let session = try SessionDescription(parsing: offer)
        let (socket, rtcpSocket) = try RTPSocket.bindPair(host: localHost)
        let answerer = SIPAudioAnswerer(preference: codecs, address: localHost, port: socket.local.port,
                                        sessionID: String(UInt32.random(in: 1 ... .max)), srtp: srtp)
        let negotiated = try SIPAudioNegotiation(try answerer.answer(session))
        self.socket = socket
        self.rtcpSocket = rtcpSocket
        offerer = nil
        negotiation = Mutex(negotiated)
        local = socket.local
        localDescription = negotiated.chosen.session.serialized()
        self.endpoints = endpoints
        self.logger = logger
        var counters = SIPAudioCounters(codec: negotiated.chosen.codec.encodingName, remote: negotiated.remote.map { "\($0)" } ?? "-")
        counters.srtp = negotiated.srtpName
        shared = Mutex(counters)
    }

    /// Offers `codecs` (in order; Opus under payload type 111; telephone-event/8000, ptime 20, sendrecv) on an even RTP port bound on
    /// `localHost`, as RTP/SAVP with two fresh SDES keys when `srtp` is mandatory (RTP/AVP otherwise, see
    /// `SIPAudioOfferer`). Throws `SIPAudioCallError` for the socket.
    public init(localHost: String, codecs: [SIPAudioCodec] = [.pcmu, .pcma], srtp: SIPSRTPMode = .off,
                endpoints: any SIPAudioEndpoints, silenceTimeout: Duration = .seconds(30), rtcpInterval: Duration = .seconds(5), logger: Logger) throws {
        self.silenceTimeout = silenceTimeout
        self.rtcpInterval = rtcpInterval
        let (socket, rtcpSocket) = try RTPSocket.bindPair(host: localHost)
        let offerer = SIPAudioOfferer(codecs: codecs, address: localHost, port: socket.local.port,
                                      sessionID: String(UInt32.random(in: 1 ... .max)), srtp: srtp)
        self.socket = socket
        self.rtcpSocket = rtcpSocket
        self.offerer = offerer
        negotiation = Mutex(nil)
        local = socket.local
        localDescription = offerer.offer.serialized()
        self.endpoints = endpoints
        self.logger = logger
        shared = Mutex(SIPAudioCounters(codec: "-", remote: "-"))
    }

    /// Reads the callee's answer to our offer (RFC 3264 §6.1): the codec and payload types it chose and where
    /// to send. Throws `SDPError` for an unparsable answer, `SIPAudioAnswerError` for an unusable one,
    /// `SIPAudioCallError` for a bad address or a call that answered an offer itself, or already started.
    public func accept(answer: String) throws {
        guard let offerer else { throw SIPAudioCallError.notOffering }
        let negotiated = try SIPAudioNegotiation(try offerer.accept(try SessionDescription(parsing: answer)))
        let idle = lifecycle.withLock { if case .idle = $0 { true } else { false } }
        guard idle else { throw SIPAudioCallError.notOffering }
        negotiation.withLock { $0 = negotiated }
        shared.withLock {
            $0.codec = negotiated.chosen.codec.encodingName
            $0.remote = negotiated.remote.map { "\($0)" } ?? "-"
            $0.srtp = negotiated.srtpName
        }
    }

    /// Starts sending the microphone (G.711 at 8 kHz, or the pipeline's Opus packets as they are; 20 ms packets, one SSRC) and playing what arrives.
    /// `onDigit` hears each RFC 4733 key press once; `onState` `.flowing` at the first RTP packet and
    /// `.silent` when nothing arrived for `silenceTimeout` (30 s; from the start too). Both run on the `sip-rtp` thread. Once only.
    public func start(onDigit: @escaping @Sendable (Character) -> Void,
                      onState: @escaping @Sendable (SIPAudioState) -> Void) {
        let ready = negotiation.withLock { $0 != nil }
        guard ready else {
            logger.error("SIP audio not started: no answer accepted for our offer")
            return
        }
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
                    metadata: ["direction": "\(negotiated.direction.rawValue)", "srtp": "\(shared.withLock { $0.srtp })",
                               "telephoneEvent": "\(negotiated.telephoneEventPayloadType.map(String.init) ?? "-")"])
        NamedThread.start("sip-rtp") { [self] in
            do {
                var loop = try SIPRTPLoop(call: self, output: output, onDigit: onDigit, onState: onState)
                loop.run()
            } catch {
                // Checked when the keys were negotiated, so only a libsrtp failure since; never plain RTP instead.
                logger.error("SIP audio not started: \(error)")
            }
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

    /// Sends `keys` (0–9, `*`, `#`, A–D; `,` pauses 1 s) as RFC 4733 telephone-events after `lead` of audio, in
    /// the place of audio packets (`SIPDigitSender`), on the `sip-rtp` thread. Needs telephone-event negotiated at
    /// the codec's clock rate; otherwise nothing is sent and a warning says why.
    public func send(keys: String, lead: Duration = .zero) {
        let queued = inbox.withLock { inbox -> Bool in
            guard !inbox.stopping else { return false }
            inbox.keys.append((keys, lead))
            return true
        }
        if queued { wakeup.wake() }
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
            "codec": "\(counters.codec)", "srtp": "\(counters.srtp)", "srtpFailed": "\(counters.srtpFailed)",
            "srtcpFailed": "\(counters.srtcpFailed)", "packetsSent": "\(counters.packetsSent)",
            "packetsReceived": "\(counters.packetsReceived)", "packetsDropped": "\(counters.packetsDropped)",
            "digits": "\(counters.digitsReceived)", "digitsSent": "\(counters.digitsSent)", "remote": "\(counters.remote)",
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
