import Foundation
import IntercomAgent
import IntercomPlatform
import IntercomTestSupport
import Logging
import Media
import Synchronization
import Testing
import WebRTCCore

/// `SIPAudioCall` (issue #18) on the loopback against a scripted RTP peer: G.711 both ways, symmetric RTP,
/// RFC 4733 digits, garbage; first with a scripted microphone and speaker, then with `MediaService`'s own.
@Suite("SIP call audio over plain RTP", .serialized, .timeLimit(.minutes(1)))
struct SIPAudioCallTests {
    static let logger: Logger = {
        var logger = Logger(label: "sip-audio-test")
        logger.logLevel = .critical
        return logger
    }()

    /// A microphone fed by the test and a speaker that records the payloads it is handed.
    final class ScriptedEndpoints: SIPAudioEndpoints, SIPAudioOutput {
        let deliver = Mutex<(@Sendable (SIPMicrophoneFrame) -> Void)?>(nil)
        let played = Mutex<[[UInt8]]>([])
        let claimedCodec = Mutex<SIPAudioCodec?>(nil)
        let detached = Atomic<Int>(0)

        func attachMicrophone(_ deliver: @escaping @Sendable (SIPMicrophoneFrame) -> Void) {
            self.deliver.withLock { $0 = deliver }
        }

        func claimSpeaker(codec: SIPAudioCodec) -> (any SIPAudioOutput)? {
            claimedCodec.withLock { $0 = codec }
            return self
        }

        func detach() {
            detached.add(1, ordering: .relaxed)
            deliver.withLock { $0 = nil }
        }

        func play(sequenceNumber: UInt16, payload: [UInt8]) {
            played.withLock { $0.append(payload) }
        }

        /// `frames` 20 ms frames of a 48 kHz `hertz` tone, one every 10 ms (the inbox holds 10: a thread held up
        /// for 100 ms on a busy machine loses none).
        func speak(hertz: Double, frames: Int) async throws {
            var tone = ToneGenerator(frequency: hertz, amplitude: 0.4, sampleRate: 48_000, channels: 1)
            for _ in 0..<frames {
                deliver.withLock { $0 }?(.pcm(tone.next(frames: 960)))
                try await Task.sleep(for: .milliseconds(10))
            }
        }
    }

    static func offer(port: UInt16, formats: String, rtpmaps: [String]) -> String {
        (["v=0", "o=peer 1 1 IN IP4 127.0.0.1", "s=-", "c=IN IP4 127.0.0.1", "t=0 0", "m=audio \(port) RTP/AVP \(formats)"]
            + rtpmaps + ["a=sendrecv"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The names of this process's threads now.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// `stop` returns once the loop ended and the socket closed; the kernel thread exits right after.
    static func threadEnds(_ name: String) async throws -> Bool {
        for _ in 0..<50 {
            if !threadNames().contains(name) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0..<200 {
            if condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// The session's packets as the peer decodes them: 8 kHz PCM, and the RTP headers.
    static func decode(_ datagrams: [[UInt8]], codec: SIPAudioCodec) -> (pcm: [Int16], packets: [RTPPacket]) {
        let packets = datagrams.compactMap { try? RTPPacket(parsing: $0) }
        let pcm = packets.flatMap { codec == .pcmu ? G711.muLaw(decoding: $0.payload) : G711.aLaw(decoding: $0.payload) }
        return (pcm, packets)
    }

    @Test("a G.711 call: the tone both ways, digits once each in order, the latch, garbage dropped, stop ends the thread",
          arguments: [(SIPAudioCodec.pcmu, UInt8(0)), (SIPAudioCodec.pcma, UInt8(8))])
    func loopbackCall(codec: SIPAudioCodec, payloadType: UInt8) async throws {
        let peer = try SIPAudioPeer()
        // The offer names another socket: the session sends there until the peer's first packet (RFC 4961).
        let offeredSink = try SIPAudioPeer()
        let endpoints = ScriptedEndpoints()
        let rtpmap = codec == .pcmu ? "a=rtpmap:0 PCMU/8000" : "a=rtpmap:8 PCMA/8000"
        let offer = Self.offer(port: offeredSink.port, formats: "\(payloadType) 101",
                               rtpmaps: [rtpmap, "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15"])
        let call = try SIPAudioCall(offer: offer, localHost: "127.0.0.1", codecs: [codec], endpoints: endpoints, logger: Self.logger)
        #expect(call.answer.contains("c=IN IP4 127.0.0.1\r\n"))
        #expect(call.answer.contains("m=audio \(call.local.port) RTP/AVP \(payloadType) 101\r\n"))
        #expect(call.local.port % 2 == 0)

        let digits = Mutex<[Character]>([])
        let states = Mutex<[SIPAudioState]>([])
        call.start(onDigit: { digit in digits.withLock { $0.append(digit) } },
                   onState: { state in states.withLock { $0.append(state) } })
        #expect(endpoints.claimedCodec.withLock { $0 } == codec)

        // Before the peer speaks: the first packets (the marker on the very first) go to the offered address.
        try await endpoints.speak(hertz: 1000, frames: 5)
        let early = Self.decode(offeredSink.receive(count: 5, timeout: .seconds(2)), codec: codec).packets
        #expect(early.count == 5)
        #expect(early.first?.marker == true && early.dropFirst().allSatisfy { !$0.marker })

        // The peer: its tone, garbage, a foreign payload type, then three key presses.
        for datagram in SIPAudioPeer.tonePackets(codec: codec, payloadType: payloadType, hertz: 1000, count: 60) {
            peer.send(datagram, to: call.local.port)
        }
        let garbage: [[UInt8]] = [[], [0xFF], Array(repeating: 0x80, count: 11), [UInt8](repeating: 0xAB, count: 300),
                                  SIPAudioPeer.tonePackets(codec: codec, payloadType: 96, hertz: 1000, count: 1)[0]]
        for datagram in garbage { peer.send(datagram, to: call.local.port) }
        for datagram in SIPAudioPeer.digitPackets("1#9", payloadType: 101) {
            peer.send(datagram, to: call.local.port)
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(try await Self.eventually { digits.withLock { $0.count } >= 3 })
        #expect(digits.withLock { $0 } == ["1", "#", "9"])

        // Latched: the session now sends to the peer's socket, a continuous stream of the microphone's tone.
        let counters = call.counters
        #expect(counters.latched && counters.remote == "127.0.0.1:\(peer.port)")
        try await endpoints.speak(hertz: 1000, frames: 30)
        let (pcm, packets) = Self.decode(peer.receive(count: 30, timeout: .seconds(3)), codec: codec)
        #expect(packets.count == 30)
        #expect(Set(packets.map(\.ssrc)).count == 1 && packets.first?.ssrc == early.first?.ssrc)
        #expect(packets.allSatisfy { $0.payloadType == payloadType && $0.payload.count == 160 })
        let firstSequence = early.first?.sequenceNumber ?? 0
        #expect(packets.enumerated().allSatisfy { $0.element.sequenceNumber == firstSequence &+ UInt16(5 + $0.offset) })
        #expect(packets.enumerated().allSatisfy { $0.element.timestamp == (early.first?.timestamp ?? 0) &+ UInt32(160 * (5 + $0.offset)) })
        let frequency = PCMAnalysis.dominantFrequency(pcm, sampleRate: 8000, range: 300...3000, step: 10, window: pcm.count)
        #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        // The microphone's level within 1 dB, its 3rd harmonic 30 dB down (G.711 gives about 38; the other law's
        // decoding is 11 dB off with the harmonic 21 dB down).
        let expected = 20 * log10(0.4 / 2.0.squareRoot())
        #expect(abs(PCMAnalysis.rmsDecibels(pcm) - expected) < 1, "level \(PCMAnalysis.rmsDecibels(pcm)) dBFS")
        let harmonic = PCMAnalysis.goertzelMagnitude(pcm, frequency: 3000, sampleRate: 8000)
        let fundamental = PCMAnalysis.goertzelMagnitude(pcm, frequency: 1000, sampleRate: 8000)
        #expect(harmonic < fundamental / 30, "3 kHz \(harmonic), 1 kHz \(fundamental)")

        let final = call.counters
        #expect(final.codec == codec.encodingName)
        #expect(final.packetsReceived == 60 + SIPAudioPeer.digitPackets("1#9", payloadType: 101).count)
        #expect(final.packetsDropped == garbage.count)
        #expect(final.digitsReceived == 3)
        #expect(try await Self.eventually { call.counters.packetsSent == 35 })  // counted just after each send
        #expect(final.receivedLevel > -30, "level \(final.receivedLevel) dBFS")
        #expect(endpoints.played.withLock { $0.count } == 60)
        #expect(states.withLock { $0 } == [.flowing])

        await call.stop()
        #expect(try await Self.threadEnds("sip-rtp"))
        #expect(endpoints.detached.load(ordering: .relaxed) == 1)
        await call.stop()  // idempotent
        #expect(endpoints.detached.load(ordering: .relaxed) == 1)
    }

    @Test("after the latch, packets from another address are dropped: no injected digits")
    func strangersAreIgnoredAfterTheLatch() async throws {
        let peer = try SIPAudioPeer()
        let stranger = try SIPAudioPeer()
        let endpoints = ScriptedEndpoints()
        let offer = Self.offer(port: peer.port, formats: "0 101", rtpmaps: ["a=rtpmap:101 telephone-event/8000"])
        let call = try SIPAudioCall(offer: offer, localHost: "127.0.0.1", endpoints: endpoints, logger: Self.logger)
        let digits = Mutex<[Character]>([])
        call.start(onDigit: { digit in digits.withLock { $0.append(digit) } }, onState: { _ in })
        for datagram in SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 3) {
            peer.send(datagram, to: call.local.port)
        }
        #expect(try await Self.eventually { call.counters.latched })
        for datagram in SIPAudioPeer.digitPackets("5", payloadType: 101) { stranger.send(datagram, to: call.local.port) }
        #expect(try await Self.eventually { call.counters.packetsDropped == SIPAudioPeer.digitPackets("5", payloadType: 101).count })
        #expect(digits.withLock { $0 }.isEmpty && call.counters.remote == "127.0.0.1:\(peer.port)")
        await call.stop()
    }

    @Test("RTCP on the odd port: an SR with a report block on the peer's stream and a CNAME, to the peer's RTCP source")
    func rtcpReports() async throws {
        let peer = try SIPAudioPeer()
        let peerRTCP = try SIPAudioPeer()
        let endpoints = ScriptedEndpoints()
        let call = try SIPAudioCall(offer: Self.offer(port: peer.port, formats: "0", rtpmaps: []), localHost: "127.0.0.1",
                                    endpoints: endpoints, rtcpInterval: .milliseconds(200), logger: Self.logger)
        call.start(onDigit: { _ in }, onState: { _ in })
        // 20 of the peer's packets with two lost (1005 and 1010), our 10 packets, and the peer's own RR.
        for (index, datagram) in SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 20).enumerated()
        where index != 5 && index != 10 {
            peer.send(datagram, to: call.local.port)
        }
        try await endpoints.speak(hertz: 1000, frames: 10)
        peerRTCP.send(try RTCPPacket.receiverReport(ReceiverReport(ssrc: 0x5EED)).serialized(), to: call.local.port + 1)
        #expect(try await Self.eventually { call.counters.rtcpReceived == 1 })
        // The next report goes to where the peer's RTCP came from.
        let reports = peerRTCP.receive(count: 1, timeout: .seconds(2)).compactMap { try? RTCPPacket.parseCompound($0) }
        guard case .senderReport(let sender)? = reports.first?.first else {
            Issue.record("no SR: \(reports)")
            await call.stop()
            return
        }
        let audio = Self.decode(peer.receive(count: 10, timeout: .seconds(2)), codec: .pcmu).packets
        #expect(sender.ssrc == audio.first?.ssrc && sender.packetCount == 10 && sender.octetCount == 1600)
        #expect(sender.reports.first?.ssrc == 0x5EED && sender.reports.first?.cumulativeLost == 2)
        #expect(sender.reports.first?.extendedHighestSequenceNumber == 1019)
        guard case .sourceDescription(let description)? = reports.first?.dropFirst().first else {
            Issue.record("no SDES after the SR")
            await call.stop()
            return
        }
        #expect(description.chunks.first?.ssrc == sender.ssrc)
        #expect(try await Self.eventually { call.counters.rtcpSent >= 1 })  // counted just after the send
        await call.stop()
    }

    @Test("a peer that stops sending, or never sends, is reported silent once, and flowing again when it resumes")
    func silenceIsReported() async throws {
        let peer = try SIPAudioPeer()
        let call = try SIPAudioCall(offer: Self.offer(port: peer.port, formats: "0", rtpmaps: []), localHost: "127.0.0.1",
                                    endpoints: ScriptedEndpoints(), silenceTimeout: .milliseconds(300), logger: Self.logger)
        let states = Mutex<[SIPAudioState]>([])
        call.start(onDigit: { _ in }, onState: { state in states.withLock { $0.append(state) } })
        let packets = SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 4)
        peer.send(packets[0], to: call.local.port)
        peer.send(packets[1], to: call.local.port)
        #expect(try await Self.eventually { states.withLock { $0 } == [.flowing, .silent(seconds: 0)] })
        try await Task.sleep(for: .milliseconds(500))  // reported once: no timer runs after it
        peer.send(packets[2], to: call.local.port)
        #expect(try await Self.eventually { states.withLock { $0 } == [.flowing, .silent(seconds: 0), .flowing] })
        await call.stop()

        // A peer whose RTP never arrives (lost behind a NAT) is silent too.
        let mute = try SIPAudioCall(offer: Self.offer(port: peer.port, formats: "0", rtpmaps: []), localHost: "127.0.0.1",
                                    endpoints: ScriptedEndpoints(), silenceTimeout: .milliseconds(300), logger: Self.logger)
        let muteStates = Mutex<[SIPAudioState]>([])
        mute.start(onDigit: { _ in }, onState: { state in muteStates.withLock { $0.append(state) } })
        #expect(try await Self.eventually { muteStates.withLock { $0 } == [.silent(seconds: 0)] })
        await mute.stop()
    }

    @Test("unusable offers are SIPAudioAnswerError (a 488); a local host that is not an address is SIPAudioCallError")
    func unusableOffers() throws {
        let endpoints = ScriptedEndpoints()
        #expect(throws: SIPAudioAnswerError.srtpOff) {
            _ = try SIPAudioCall(offer: Self.offer(port: 4000, formats: "0", rtpmaps: []).replacingOccurrences(of: "RTP/AVP", with: "RTP/SAVP"),
                                 localHost: "127.0.0.1", endpoints: endpoints, logger: Self.logger)
        }
        #expect(throws: SIPAudioAnswerError.self) {
            _ = try SIPAudioCall(offer: Self.offer(port: 4000, formats: "96", rtpmaps: ["a=rtpmap:96 opus/48000/2"]),
                                 localHost: "127.0.0.1", endpoints: endpoints, logger: Self.logger)
        }
        #expect(throws: SIPAudioCallError.self) {
            _ = try SIPAudioCall(offer: Self.offer(port: 4000, formats: "0", rtpmaps: []), localHost: "not-an-address",
                                 endpoints: endpoints, logger: Self.logger)
        }
    }

    @Test("MediaService's own microphone (1 kHz tone through the Opus fan-out) and speaker (an ALSA file PCM)")
    func mediaServiceCall() async throws {
        let directory = try TemporaryDirectory(prefix: "sip-audio")
        let recording = directory.path("speaker.raw")
        var settings = MediaService.Settings(width: 160, height: 120, fps: 10, bitrateKbps: 200)
        settings.microphone = .testTone(hertz: 1000)
        settings.speaker = .alsa(device: "doorspeaker", configurationText: DeviceAudioTests.fileSpeaker(recordingInto: recording))
        settings.idleStopDelay = .zero
        let media = MediaService(settings: settings, logger: Self.logger)
        media.start()
        defer { media.stop() }
        let peer = try SIPAudioPeer()
        let call = try media.sipAudioCall(offer: Self.offer(port: peer.port, formats: "8 0", rtpmaps: []), localHost: "127.0.0.1",
                                      srtp: .optional)
        #expect(call.counters.codec == "PCMU")  // our order wins: PCMU, then PCMA
        call.start(onDigit: { _ in }, onState: { _ in })
        // The peer speaks in real time (the speaker's jitter buffer plays 20 ms per 20 ms).
        let sender = Task {
            for datagram in SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 1000, count: 75) {
                peer.send(datagram, to: call.local.port)
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let (pcm, packets) = Self.decode(peer.receive(count: 60, timeout: .seconds(10)), codec: .pcmu)
        try await sender.value
        #expect(packets.count == 60)
        // Past the Opus and FIR start-up, the microphone's 1 kHz tone.
        let steady = Array(pcm.dropFirst(1600))
        let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 8000, range: 300...3000, step: 10, window: steady.count)
        #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
        #expect(PCMAnalysis.rmsDecibels(steady) > -20)
        #expect(call.counters.receivedLevel > -30)
        await call.stop()
        #expect(try await Self.threadEnds("sip-rtp"))
        // The speaker played the peer's tone, interpolated to 48 kHz.
        try await Task.sleep(for: .milliseconds(200))
        let played = DeviceAudioTests.samples(Array(FileManager.default.contents(atPath: recording) ?? Data()))
        let loud = played.count > 4800 ? Array(played.dropFirst(4800)) : []
        let heard = PCMAnalysis.dominantFrequency(loud, sampleRate: 48_000, range: 300...3000, step: 10, window: loud.count)
        #expect(heard.map { abs($0 - 1000) <= 20 } == true, "speaker dominant \(heard ?? 0) Hz over \(played.count) samples")
    }
}
