import Foundation
import IntercomAgent
import IntercomPlatform
import IntercomTestSupport
import Logging
import Media
import Testing
import WebRTCCore

/// `SIPAudioCall` with Opus (RFC 7587) on the loopback: the pipeline's packets sent as they are under the
/// offer's payload type with 48 kHz timestamps, the peer's packets to the speaker (scripted, then
/// `MediaService`'s own ALSA file speaker). Nested in `SIPAudioCallTests`, whose `.serialized` it inherits: those tests
/// check that no `sip-rtp` thread is left, so no Opus call may run beside them.
extension SIPAudioCallTests {
    @Suite("SIP call audio with Opus")
    struct OpusCalls {
        typealias Endpoints = ScriptedEndpoints

        /// A linphone-like offer: G.711 first, Opus under 98, telephone-event.
        static func offer(port: UInt16) -> String {
            SIPAudioCallTests.offer(port: port, formats: "0 98 101",
                                    rtpmaps: ["a=rtpmap:98 opus/48000/2", "a=fmtp:98 useinbandfec=1", "a=rtpmap:101 telephone-event/8000"])
        }

        /// `count` 20 ms Opus packets of a 48 kHz `hertz` tone, as the pipeline's encoder makes them.
        static func opusTone(hertz: Double, count: Int) throws -> [[UInt8]] {
            let encoder = try OpusEncoder(configuration: OpusConfiguration())
            var tone = ToneGenerator(frequency: hertz, amplitude: 0.4, sampleRate: 48_000, channels: 1)
            return try (0..<count).map { _ in try encoder.encode(tone.next(frames: 960)) }
        }

        static func rtp(_ payloads: [[UInt8]], payloadType: UInt8) -> [[UInt8]] {
            payloads.enumerated().map { index, payload in
                let packet = RTPPacket(marker: index == 0, payloadType: payloadType, sequenceNumber: UInt16(3000 + index),
                                       timestamp: UInt32(960 * index), ssrc: 0x0905, payload: payload)
                return (try? packet.serialized()) ?? []
            }
        }

        /// The peer's view of what it received: 48 kHz PCM decoded in order, and the RTP headers.
        static func decode(_ datagrams: [[UInt8]]) throws -> (pcm: [Int16], packets: [RTPPacket]) {
            let packets = datagrams.compactMap { try? RTPPacket(parsing: $0) }
            let decoder = try Media.OpusDecoder(sampleRate: 48_000, channels: 1)
            return (try packets.flatMap { try decoder.decode($0.payload) }, packets)
        }

        @Test("Opus chosen over G.711 by our order; packets out as the pipeline made them (+960 per packet), the peer's to the speaker")
        func scriptedOpusCall() async throws {
            let peer = try SIPAudioPeer()
            let endpoints = Endpoints()
            let call = try SIPAudioCall(offer: Self.offer(port: peer.port), localHost: "127.0.0.1", codecs: [.opus, .pcmu],
                                        endpoints: endpoints, logger: SIPAudioCallTests.logger)
            #expect(call.answer.contains("m=audio \(call.local.port) RTP/AVP 98 101\r\n"))
            #expect(call.answer.contains("a=rtpmap:98 opus/48000/2\r\n") && call.answer.contains("a=fmtp:98 useinbandfec=1\r\n"))
            #expect(call.counters.codec == "opus")
            call.start(onDigit: { _ in }, onState: { _ in })
            #expect(endpoints.claimedCodec.withLock { $0 } == .opus)

            // The microphone: the pipeline's Opus packets, one every 10 ms (the inbox holds 10).
            let microphone = try Self.opusTone(hertz: 1000, count: 30)
            for packet in microphone {
                endpoints.deliver.withLock { $0 }?(.opus(packet))
                try await Task.sleep(for: .milliseconds(10))
            }
            let (pcm, packets) = try Self.decode(peer.receive(count: 30, timeout: .seconds(3)))
            #expect(packets.count == 30)
            #expect(packets.map(\.payload) == microphone)  // no decode, no re-encode
            #expect(packets.allSatisfy { $0.payloadType == 98 } && Set(packets.map(\.ssrc)).count == 1)
            #expect(packets.first?.marker == true && packets.dropFirst().allSatisfy { !$0.marker })
            let first = packets.first
            #expect(packets.enumerated().allSatisfy { $0.element.timestamp == (first?.timestamp ?? 0) &+ UInt32(960 * $0.offset) })
            #expect(packets.enumerated().allSatisfy { $0.element.sequenceNumber == (first?.sequenceNumber ?? 0) &+ UInt16($0.offset) })
            let steady = Array(pcm.dropFirst(4800))
            let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10, window: steady.count)
            #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")

            // The peer: 50 packets of its tone, a G.711 packet (not negotiated) and bytes that are not Opus.
            let spoken = try Self.opusTone(hertz: 440, count: 50)
            for datagram in Self.rtp(spoken, payloadType: 98) { peer.send(datagram, to: call.local.port) }
            peer.send(SIPAudioPeer.tonePackets(codec: .pcmu, payloadType: 0, hertz: 440, count: 1)[0], to: call.local.port)
            peer.send(Self.rtp([[0x03]], payloadType: 98)[0], to: call.local.port)  // code 3 without its count byte
            #expect(try await SIPAudioCallTests.eventually { call.counters.packetsDropped == 2 })
            #expect(endpoints.played.withLock { $0 } == spoken)
            let counters = call.counters
            #expect(counters.packetsReceived == 50 && counters.packetsSent == 30)
            #expect(counters.receivedLevel > -20 && counters.receivedLevel < -5, "level \(counters.receivedLevel) dBFS")
            await call.stop()
            #expect(endpoints.detached.load(ordering: .relaxed) == 1)
        }

        @Test("a scripted PCM microphone is encoded to Opus on the call's thread; our offer with Opus reads an Opus answer")
        func offeredOpusCallEncodesPCM() async throws {
            let peer = try SIPAudioPeer()
            let endpoints = Endpoints()
            let call = try SIPAudioCall(localHost: "127.0.0.1", codecs: [.opus, .pcma], endpoints: endpoints,
                                        logger: SIPAudioCallTests.logger)
            #expect(call.offer.contains("m=audio \(call.local.port) RTP/AVP 111 8 101 102\r\n"))
            try call.accept(answer: SIPAudioCallTests.offer(port: peer.port, formats: "111", rtpmaps: ["a=rtpmap:111 opus/48000/2"]))
            #expect(call.counters.codec == "opus")
            call.start(onDigit: { _ in }, onState: { _ in })
            try await endpoints.speak(hertz: 1000, frames: 25)
            let (pcm, packets) = try Self.decode(peer.receive(count: 25, timeout: .seconds(3)))
            #expect(packets.count == 25 && packets.allSatisfy { $0.payloadType == 111 })
            #expect(packets.enumerated().allSatisfy { $0.element.timestamp == (packets.first?.timestamp ?? 0) &+ UInt32(960 * $0.offset) })
            let steady = Array(pcm.dropFirst(4800))
            let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10, window: steady.count)
            #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
            await call.stop()
        }

        @Test("two calls with Opus over SDES-SRTP (mandatory offer, optional answer) hear each other's tone")
        func opusOverSRTP() async throws {
            let callerEnds = Endpoints(), calleeEnds = Endpoints()
            let caller = try SIPAudioCall(localHost: "127.0.0.1", codecs: [.opus, .pcmu], srtp: .mandatory, endpoints: callerEnds,
                                          logger: SIPAudioCallTests.logger)
            let callee = try SIPAudioCall(offer: caller.offer, localHost: "127.0.0.1", codecs: [.opus, .pcmu], srtp: .optional,
                                          endpoints: calleeEnds, logger: SIPAudioCallTests.logger)
            #expect(callee.answer.contains(" RTP/SAVP 111 102\r\n") && callee.answer.contains("a=rtpmap:111 opus/48000/2\r\n"))
            try caller.accept(answer: callee.answer)
            #expect(caller.counters.codec == "opus" && callee.counters.codec == "opus")
            #expect(caller.counters.srtp == "AES_CM_128_HMAC_SHA1_80" && callee.counters.srtp == "AES_CM_128_HMAC_SHA1_80")
            caller.start(onDigit: { _ in }, onState: { _ in })
            callee.start(onDigit: { _ in }, onState: { _ in })
            async let one: Void = callerEnds.speak(hertz: 1000, frames: 50)
            async let two: Void = calleeEnds.speak(hertz: 600, frames: 50)
            _ = try await (one, two)
            #expect(try await SIPAudioCallTests.eventually {
                callerEnds.played.withLock { $0.count } >= 45 && calleeEnds.played.withLock { $0.count } >= 45
            })
            await caller.stop()
            await callee.stop()
            for (ends, hertz) in [(calleeEnds, 1000.0), (callerEnds, 600.0)] {
                let decoder = try Media.OpusDecoder(sampleRate: 48_000, channels: 1)
                let pcm = try ends.played.withLock { $0 }.flatMap { try decoder.decode($0) }
                let steady = Array(pcm.dropFirst(4800))
                let heard = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10, window: steady.count)
                #expect(heard.map { abs($0 - hertz) <= 20 } == true, "heard \(heard ?? 0) Hz, expected \(hertz)")
            }
            for call in [caller, callee] {
                #expect(call.counters.srtpFailed == 0 && call.counters.packetsDropped == 0, "\(call.counters)")
            }
        }

        @Test("MediaService: the microphone's Opus out unchanged in rate, the peer's Opus on the ALSA file speaker")
        func mediaServiceOpusCall() async throws {
            let directory = try TemporaryDirectory(prefix: "sip-opus")
            let recording = directory.path("speaker.raw")
            var settings = MediaService.Settings(width: 160, height: 120, fps: 10, bitrateKbps: 200)
            settings.microphone = .testTone(hertz: 1000)
            settings.speaker = .alsa(device: "doorspeaker", configurationText: DeviceAudioTests.fileSpeaker(recordingInto: recording))
            settings.idleStopDelay = .zero
            let media = MediaService(settings: settings, logger: SIPAudioCallTests.logger)
            media.start()
            defer { media.stop() }
            let peer = try SIPAudioPeer()
            let call = try media.sipAudioCall(offer: Self.offer(port: peer.port), localHost: "127.0.0.1", codecs: [.opus, .pcmu],
                                              srtp: .optional)
            #expect(call.counters.codec == "opus")
            call.start(onDigit: { _ in }, onState: { _ in })
            let spoken = try Self.opusTone(hertz: 440, count: 75)
            let sender = Task {
                for datagram in Self.rtp(spoken, payloadType: 98) {
                    peer.send(datagram, to: call.local.port)
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            let (pcm, packets) = try Self.decode(peer.receive(count: 60, timeout: .seconds(10)))
            try await sender.value
            #expect(packets.count == 60 && packets.allSatisfy { $0.payloadType == 98 })
            #expect(packets.enumerated().allSatisfy { $0.element.timestamp == (packets.first?.timestamp ?? 0) &+ UInt32(960 * $0.offset) })
            let steady = Array(pcm.dropFirst(9600))
            let frequency = PCMAnalysis.dominantFrequency(steady, sampleRate: 48_000, range: 300...3000, step: 10, window: steady.count)
            #expect(frequency.map { abs($0 - 1000) <= 20 } == true, "dominant \(frequency ?? 0) Hz")
            #expect(call.counters.receivedLevel > -20, "level \(call.counters.receivedLevel) dBFS")
            await call.stop()
            try await Task.sleep(for: .milliseconds(200))
            let played = DeviceAudioTests.samples(Array(FileManager.default.contents(atPath: recording) ?? Data()))
            let loud = played.count > 9600 ? Array(played.dropFirst(9600)) : []
            let heard = PCMAnalysis.dominantFrequency(loud, sampleRate: 48_000, range: 300...3000, step: 10, window: loud.count)
            #expect(heard.map { abs($0 - 440) <= 10 } == true, "speaker dominant \(heard ?? 0) Hz over \(played.count) samples")
        }
    }
}
