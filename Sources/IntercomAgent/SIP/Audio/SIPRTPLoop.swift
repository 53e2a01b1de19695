import Glibc
import IntercomPlatform
import Logging
import Media
import WebRTC
import WebRTCCore

/// The `sip-rtp` thread's state and loop: poll(2) on the RTP and RTCP sockets and the wakeup pipe; it wakes
/// for microphone frames, packets, the RTCP report every few seconds and the silence watch, nothing else.
/// With SDES keys (RTP/SAVP) every packet out is protected and every packet in unprotected on this thread
/// (RFC 3711); one that does not authenticate is dropped and counted before anything reads it.
struct SIPRTPLoop {
    let call: SIPAudioCall
    let output: (any SIPAudioOutput)?
    let onDigit: @Sendable (Character) -> Void
    let onState: @Sendable (SIPAudioState) -> Void
    private var packetizer: any SIPAudioPacketizer
    private var receiver: SIPRTPReceiver
    /// The call's SRTP contexts (ours out, the peer's in); nil for plain RTP. Owned by this thread only.
    private let srtp: SRTPSession?
    /// The first RTP and the first RTCP packet that fail to unprotect are logged (a wrong key shows at once);
    /// the rest are only counted.
    private var srtpFailureLogged = false
    private var srtcpFailureLogged = false
    /// Where packets go: the offer's address until the first valid packet, then its source (RFC 4961 §4,
    /// "comedia": a peer behind NAT is reached at the address its packets come from).
    private var destination: RTPSocketAddress?
    private var latched = false
    /// The last valid packet's arrival, or the call's start: a peer that never sends (its RTP lost behind a
    /// NAT) is as silent as one that stopped.
    private var lastValid = MonotonicClock.now()
    private var flowing = false
    private var silenceReported = false
    private var sendFailing = false
    private var receiveErrors = 0
    private var levelSum = 0.0
    private var levelSamples = 0
    private var buffer = [UInt8](repeating: 0, count: 2048)
    private var reporter: SIPRTCPReporter
    private var rtcpDestination: RTPSocketAddress?
    private var rtcpLatched = false
    /// The RTCP socket failed to receive: no longer polled (RTCP is not worth a spinning thread).
    private var rtcpBroken = false
    private var nextReport: Duration
    private var payloadOctetsSent = 0
    /// RFC 4733 events out, in the place of audio packets; nil when the answer has no telephone-event at the
    /// codec's clock rate (events must share the audio's RTP clock, §2.1).
    private var digits: SIPDigitSender?
    /// Received audio is measured over this many samples (1 s at 8 kHz) before `receivedLevel` changes.
    static let levelWindow = 8000

    init(call: SIPAudioCall, output: (any SIPAudioOutput)?, onDigit: @escaping @Sendable (Character) -> Void,
         onState: @escaping @Sendable (SIPAudioState) -> Void) throws(SRTPError) {
        self.call = call
        srtp = try call.negotiated.srtp?.session()
        self.output = output
        self.onDigit = onDigit
        self.onState = onState
        let negotiated = call.negotiated
        packetizer = negotiated.codec == .opus ? SIPOpusPacketizer(payloadType: negotiated.payloadType)
            : G711Packetizer(codec: negotiated.codec, payloadType: negotiated.payloadType)
        receiver = SIPRTPReceiver(codec: negotiated.codec, audioPayloadType: negotiated.payloadType,
                                  telephoneEventPayloadType: negotiated.telephoneEventPayloadType)
        if let payloadType = negotiated.telephoneEventPayloadType, negotiated.telephoneEventClockRate == negotiated.codec.clockRate {
            digits = SIPDigitSender(payloadType: payloadType, clockRate: negotiated.telephoneEventClockRate)
        }
        destination = call.offered
        reporter = SIPRTCPReporter(ssrc: packetizer.ssrc, cname: "intercom-\(String(packetizer.ssrc, radix: 16))")
        rtcpDestination = call.offeredRTCP
        nextReport = MonotonicClock.now() + Self.randomized(call.rtcpInterval)
    }

    /// RFC 3550 §6.2: the interval times a random factor in [0.5, 1.5], so reports of many calls do not align.
    static func randomized(_ interval: Duration) -> Duration {
        interval * Double.random(in: 0.5...1.5)
    }

    mutating func run() {
        // After too many receive errors in a row the socket is no longer polled, so a broken socket cannot spin.
        while true {
            var descriptors = [
                pollfd(fd: receiveErrors < 100 ? call.socket.descriptor : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: call.wakeup.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: rtcpBroken ? -1 : call.rtcpSocket.descriptor, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&descriptors, nfds_t(descriptors.count), pollTimeout())
            if ready < 0, errno != EINTR {
                call.logger.error("SIP audio stopped: \(SystemCallError(call: "poll", errno: errno))")
                return
            }
            if descriptors[1].revents != 0 { call.wakeup.drain() }
            let (frames, keys, stopping) = call.inbox.withLock { inbox in
                defer {
                    inbox.frames = []
                    inbox.keys = []
                }
                return (inbox.frames, inbox.keys, inbox.stopping)
            }
            if stopping { return }
            for (keys, lead) in keys { queue(keys, lead: lead) }
            for frame in frames { send(frame) }
            if descriptors[0].revents != 0 { receiveAll() }
            if descriptors[2].revents != 0 { receiveRTCP() }
            watchSilence()
            reportIfDue()
        }
    }

    /// Until the next RTCP report, or the silence deadline while no silence is reported.
    private func pollTimeout() -> Int32 {
        var deadline = nextReport
        if !silenceReported { deadline = min(deadline, lastValid + call.silenceTimeout) }
        let left = deadline - MonotonicClock.now()
        return Int32(max(0, min(left.wholeMilliseconds + 1, 60_000)))
    }

    private mutating func reportIfDue() {
        let now = MonotonicClock.now()
        guard now >= nextReport else { return }
        nextReport = now + Self.randomized(call.rtcpInterval)
        guard let rtcpDestination else { return }
        let sent = call.counters.packetsSent
        let report = reporter.report(now: now, ntpTimestamp: NTPTime.now(), sentPackets: sent, sentOctets: payloadOctetsSent,
                                     rtpTimestamp: packetizer.nextTimestamp)
        // A failed report is not worth a log line of its own: the RTP path logs the same trouble.
        guard let wire = protect(report, rtcp: true), (try? call.rtcpSocket.send(wire, to: rtcpDestination)) != nil else {
            return
        }
        call.shared.withLock { $0.rtcpSent += 1 }
    }

    private mutating func receiveRTCP() {
        while true {
            let received: (ArraySlice<UInt8>, RTPSocketAddress)?
            do {
                received = try call.rtcpSocket.receive(into: &buffer)
            } catch {
                call.logger.warning("SIP audio: RTCP receiving failed; RTCP from the peer is ignored", metadata: ["error": "\(error)"])
                rtcpBroken = true
                return
            }
            guard let (wire, source) = received else { return }
            // Like RTP (RFC 4961): the first valid report's source is where ours go; then only it is heard.
            if rtcpLatched, source != rtcpDestination {
                call.shared.withLock { $0.packetsDropped += 1 }
                continue
            }
            guard let datagram = unprotect(wire, rtcp: true, from: source) else { continue }
            guard reporter.received(rtcp: datagram, arrival: MonotonicClock.now()) else {
                call.shared.withLock { $0.packetsDropped += 1 }
                continue
            }
            if !rtcpLatched {
                rtcpLatched = true
                rtcpDestination = source
            }
            call.shared.withLock { $0.rtcpReceived += 1 }
        }
    }

    private mutating func watchSilence() {
        guard !silenceReported else { return }
        let quiet = MonotonicClock.now() - lastValid
        guard quiet >= call.silenceTimeout else { return }
        silenceReported = true
        flowing = false
        let seconds = Int(quiet.components.seconds)
        call.logger.warning("SIP audio: nothing received for \(seconds) s", metadata: ["remote": "\(call.counters.remote)"])
        onState(.silent(seconds: seconds))
    }

    private mutating func queue(_ keys: String, lead: Duration) {
        guard digits != nil else {
            let negotiated = call.negotiated
            call.logger.warning("SIP audio: keys \"\(keys)\" not sent: the peer accepted no telephone-event at \(negotiated.codec.encodingName)'s clock rate (RFC 4733)",
                                metadata: ["telephoneEvent": "\(negotiated.telephoneEventPayloadType.map { "\($0)/\(negotiated.telephoneEventClockRate)" } ?? "-")"])
            return
        }
        digits?.enqueue(keys, lead: lead)
        call.logger.info("SIP audio: sending keys \"\(keys)\" as RFC 4733 events after \(lead)")
    }

    private mutating func send(_ frame: SIPMicrophoneFrame) {
        let datagrams = packetizer.packets(for: frame)
        guard let destination else { return }
        for audio in datagrams {
            var datagram = audio
            if let before = digits?.sent, digits?.isBusy == true {
                datagram = digits?.place(audio) ?? audio
                if let after = digits?.sent, after != before { call.shared.withLock { $0.digitsSent = after } }
            }
            guard let wire = protect(datagram, rtcp: false) else { continue }
            do {
                try call.socket.send(wire, to: destination)
                call.shared.withLock {
                    $0.packetsSent += 1
                    $0.bytesSent += wire.count
                }
                payloadOctetsSent += datagram.count - 12
                if sendFailing { call.logger.notice("SIP audio: sending to \(destination) works again") }
                sendFailing = false
            } catch {
                call.shared.withLock { $0.sendErrors += 1 }
                if !sendFailing { call.logger.warning("SIP audio: cannot send to \(destination)", metadata: ["error": "\(error)"]) }
                sendFailing = true
            }
        }
    }

    private mutating func receiveAll() {
        while true {
            let received: (ArraySlice<UInt8>, RTPSocketAddress)?
            do {
                received = try call.socket.receive(into: &buffer)
                receiveErrors = 0
            } catch {
                if receiveErrors == 0 { call.logger.error("SIP audio: receiving failed", metadata: ["error": "\(error)"]) }
                receiveErrors += 1
                return
            }
            guard let (datagram, source) = received else { return }
            handle(datagram, from: source)
        }
    }

    private mutating func handle(_ wire: ArraySlice<UInt8>, from source: RTPSocketAddress) {
        // After the latch only the latched peer is heard: a stranger cannot inject audio or digits.
        if latched, source != destination {
            call.shared.withLock { $0.packetsDropped += 1 }
            return
        }
        // Before the receiver and the latch: with SRTP only a packet with the peer's key moves the latch.
        guard let datagram = unprotect(wire, rtcp: false, from: source) else { return }
        let outcome = receiver.receive(datagram)
        if case .dropped = outcome {
            call.shared.withLock { $0.packetsDropped += 1 }
            return
        }
        if !latched { latch(source) }
        if !flowing {
            flowing = true
            onState(.flowing)
        }
        lastValid = MonotonicClock.now()
        silenceReported = false
        call.shared.withLock {
            $0.packetsReceived += 1
            $0.bytesReceived += wire.count
        }
        switch outcome {
        case .audio(let packet):
            reporter.received(packet, arrival: MonotonicClock.now())
            measure(receiver.decode(packet.payload))
            output?.play(sequenceNumber: packet.sequenceNumber, payload: packet.payload)
        case .event(let digit?):
            call.shared.withLock { $0.digitsReceived += 1 }
            onDigit(digit)
        case .event(nil), .dropped:
            break
        }
    }

    /// The packet as it goes on the wire: protected with our key under SRTP. Nil (counted as a send error)
    /// when libsrtp refuses, e.g. a sequence number it already protected; never sent in the clear instead.
    private func protect(_ packet: [UInt8], rtcp: Bool) -> [UInt8]? {
        guard let srtp else { return packet }
        do {
            return rtcp ? try srtp.protectRTCP(packet) : try srtp.protectRTP(packet)
        } catch {
            call.shared.withLock { $0.sendErrors += 1 }
            return nil
        }
    }

    /// The plain packet of what arrived: unprotected with the peer's key under SRTP. Nil, counted in
    /// `srtpFailed` or `srtcpFailed`, for one that fails authentication or the replay check (or is too short to be SRTP).
    private mutating func unprotect(_ wire: ArraySlice<UInt8>, rtcp: Bool, from source: RTPSocketAddress) -> ArraySlice<UInt8>? {
        guard let srtp else { return wire }
        do {
            return ArraySlice(rtcp ? try srtp.unprotectRTCP(Array(wire)) : try srtp.unprotectRTP(Array(wire)))
        } catch {
            call.shared.withLock { if rtcp { $0.srtcpFailed += 1 } else { $0.srtpFailed += 1 } }
            if !(rtcp ? srtcpFailureLogged : srtpFailureLogged) {
                if rtcp { srtcpFailureLogged = true } else { srtpFailureLogged = true }
                call.logger.warning("SIP audio: dropped an \(rtcp ? "SRTCP" : "SRTP") packet that does not unprotect (more are only counted)",
                                    metadata: ["error": "\(error)", "bytes": "\(wire.count)", "from": "\(source)"])
            }
            return nil
        }
    }

    private mutating func latch(_ source: RTPSocketAddress) {
        latched = true
        let offered = destination.map { "\($0)" } ?? "-"
        destination = source
        call.shared.withLock {
            $0.remote = "\(source)"
            $0.latched = true
        }
        call.logger.info("SIP audio: latched onto \(source) (symmetric RTP; the offer said \(offered))")
    }

    /// The received audio's level over `levelWindow` samples (decoded here too: a table lookup per sample for
    /// G.711, an 8 kHz Opus decode, `SIPRTPReceiver.decode`).
    private mutating func measure(_ pcm: [Int16]) {
        for sample in pcm { levelSum += Double(sample) * Double(sample) }
        levelSamples += pcm.count
        guard levelSamples >= Self.levelWindow else { return }
        let rms = (levelSum / Double(levelSamples)).squareRoot() / 32768
        let level = rms > 0 ? 20 * log10(rms) : -120
        call.shared.withLock { $0.receivedLevel = level }
        levelSum = 0
        levelSamples = 0
    }
}
