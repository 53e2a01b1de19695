import IntercomAgent
import Logging
import Synchronization
import Testing
import WebRTCCore

/// The offer side of SIP call audio (a call the device places, RFC 3264 §5, §6.1): the offer, the callee's
/// answer read with the SDP parser, then the same RTP loop as an answered call, against the scripted peer.
@Suite("SIP call audio: our offer, the callee's answer", .serialized, .timeLimit(.minutes(1)))
struct SIPAudioOfferTests {
    typealias Endpoints = SIPAudioCallTests.ScriptedEndpoints

    @Test("the offer: PCMU, PCMA, telephone-event, ptime 20, sendrecv on the bound port; a PCMA answer: PCMA both ways")
    func offerThenPCMAAnswer() async throws {
        let peer = try SIPAudioPeer()
        let endpoints = Endpoints()
        let call = try SIPAudioCall(localHost: "127.0.0.1", endpoints: endpoints, logger: SIPAudioCallTests.logger)
        let offer = call.offer
        for line in ["c=IN IP4 127.0.0.1", "m=audio \(call.local.port) RTP/AVP 0 8 101", "a=rtpmap:0 PCMU/8000",
                     "a=rtpmap:8 PCMA/8000", "a=rtpmap:101 telephone-event/8000", "a=fmtp:101 0-15", "a=ptime:20",
                     "a=sendrecv"] {
            #expect(offer.contains(line + "\r\n"), "\(line) in \(offer)")
        }
        #expect(try SessionDescription(parsing: offer).media.count == 1)

        // The callee chose PCMA (its first format) and moved telephone-event to 96.
        let answer = SIPAudioCallTests.offer(port: peer.port, formats: "8 96",
                                             rtpmaps: ["a=rtpmap:8 PCMA/8000", "a=rtpmap:96 telephone-event/8000"])
        try call.accept(answer: answer)
        let digits = Mutex<[Character]>([])
        call.start(onDigit: { digit in digits.withLock { $0.append(digit) } }, onState: { _ in })
        #expect(endpoints.claimedCodec.withLock { $0 } == .pcma)

        try await endpoints.speak(hertz: 1000, frames: 5)
        let sent = SIPAudioCallTests.decode(peer.receive(count: 5, timeout: .seconds(2)), codec: .pcma).packets
        #expect(sent.count == 5 && sent.allSatisfy { $0.payloadType == 8 && $0.payload.count == 160 })

        for datagram in SIPAudioPeer.tonePackets(codec: .pcma, payloadType: 8, hertz: 1000, count: 10) {
            peer.send(datagram, to: call.local.port)
        }
        for datagram in SIPAudioPeer.digitPackets("5", payloadType: 96) { peer.send(datagram, to: call.local.port) }
        #expect(try await SIPAudioCallTests.eventually { endpoints.played.withLock { $0.count } == 10 })
        #expect(try await SIPAudioCallTests.eventually { digits.withLock { $0 } == ["5"] })
        #expect(call.counters.codec == "PCMA")
        #expect(call.counters.remote == "127.0.0.1:\(peer.port)")
        await call.stop()
    }

    @Test("unusable answers throw (garbage, port 0, no common codec, RTP/SAVP, no c=); start without an answer does nothing")
    func badAnswers() async throws {
        let endpoints = Endpoints()
        let call = try SIPAudioCall(localHost: "127.0.0.1", endpoints: endpoints, logger: SIPAudioCallTests.logger)
        #expect(throws: (any Error).self) { try call.accept(answer: "not an SDP") }
        #expect(throws: SIPAudioAnswerError.noAudio) {
            try call.accept(answer: SIPAudioCallTests.offer(port: 0, formats: "0", rtpmaps: []))
        }
        #expect(throws: SIPAudioAnswerError.noCommonCodec(offered: ["G729/8000"])) {
            try call.accept(answer: SIPAudioCallTests.offer(port: 4000, formats: "18", rtpmaps: ["a=rtpmap:18 G729/8000"]))
        }
        #expect(throws: SIPAudioAnswerError.transportMismatch(offered: "RTP/AVP", answered: "RTP/SAVP")) {
            try call.accept(answer: SIPAudioCallTests.offer(port: 4000, formats: "0", rtpmaps: [])
                .replacingOccurrences(of: "RTP/AVP", with: "RTP/SAVP"))
        }
        #expect(throws: SIPAudioAnswerError.missingConnectionAddress) {
            try call.accept(answer: SIPAudioCallTests.offer(port: 4000, formats: "0", rtpmaps: [])
                .replacingOccurrences(of: "c=IN IP4 127.0.0.1\r\n", with: ""))
        }
        call.start(onDigit: { _ in }, onState: { _ in })
        #expect(endpoints.claimedCodec.withLock { $0 } == nil)
        await call.stop()

        // An answering call has no offer waiting for an answer.
        let answering = try SIPAudioCall(offer: SIPAudioCallTests.offer(port: 4000, formats: "0", rtpmaps: []),
                                         localHost: "127.0.0.1", endpoints: Endpoints(), logger: SIPAudioCallTests.logger)
        #expect(throws: SIPAudioCallError.notOffering) { try answering.accept(answer: answering.answer) }
        await answering.stop()
    }
}
