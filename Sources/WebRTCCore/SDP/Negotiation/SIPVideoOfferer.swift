/// Offers VP8 video in a SIP call the device places (RFC 3264 §5, RFC 7741 §6.2) beside the audio offer
/// (`SIPAudioOfferer`), and reads the callee's answer to it: a phone without video refuses the section with
/// port 0 (RFC 3264 §6) and the call stays audio only.
public struct SIPVideoOfferer: Sendable {
    /// Our video RTP port (c= is the audio offer's, the same address).
    public var port: UInt16
    /// A dynamic payload type (RFC 3551 §3: 96–127) the audio section does not use.
    public let payloadType: UInt8
    /// Our crypto lines when the audio is offered RTP/SAVP (`srtp` mandatory): the video is too, with keys of
    /// its own (RFC 4568 §6.1: one key per stream); empty for plain RTP/AVP.
    public let cryptos: [SDPCrypto]

    /// Nil when the audio offer already uses every dynamic payload type.
    public init?(port: UInt16, audioOffer: SessionDescription) {
        let taken = Set(audioOffer.media.flatMap { $0.payloads.map(\.payloadType) })
        guard let free = (UInt8(96) ... 127).first(where: { !taken.contains($0) }) else { return nil }
        self.port = port
        payloadType = free
        let secure = audioOffer.media.first?.transportProtocol.uppercased() == "RTP/SAVP"
        cryptos = !secure ? [] : SDPCrypto.Suite.allCases.enumerated().map { offset, suite in
            SDPCrypto(tag: UInt32(offset + 1), suite: suite, keySalt: SIPSRTPKeys.freshKeySalt(for: suite))
        }
    }

    /// The video section: VP8 over RTP/AVP (RTP/SAVP beside secure audio), sent and received (we send the
    /// camera; we count the phone's).
    public var section: MediaDescription {
        var section = MediaDescription(kind: .video, port: port, transportProtocol: cryptos.isEmpty ? "RTP/AVP" : "RTP/SAVP",
                                       direction: .sendrecv)
        section.payloads = [RTPPayloadFormat(payloadType: payloadType, rtpmap: RTPMap(encodingName: "VP8", clockRate: 90_000))]
        section.otherAttributes = cryptos.map(\.attribute)
        return section
    }

    /// `audioOffer` with the video section after its sections; its index is `audioOffer.media.count`.
    public func offer(adding audioOffer: SessionDescription) -> SessionDescription {
        var offer = audioOffer
        offer.media.append(section)
        return offer
    }

    /// The callee's answer to the section at `index`: where to send and with which payload type (the answer's
    /// VP8 one, RFC 3264 §5.1); nil when it refused video (port 0), answered another codec or no address.
    public func accept(_ answer: SessionDescription, index: Int) -> SIPVideoAnswerer.Answer? {
        guard answer.media.indices.contains(index) else { return nil }
        let answered = answer.media[index]
        let transport = answered.transportProtocol.uppercased()
        let allowed = cryptos.isEmpty ? SIPVideoAnswerer.plainTransports : SIPVideoAnswerer.secureTransports
        guard answered.kind == .video, answered.port != 0, allowed.contains(transport),
              let vp8 = answered.payloads.first(where: { $0.rtpmap?.matches("VP8", clockRate: 90_000) == true }),
              let remote = SIPAudioAnswerer.connectionAddress(section: answered, session: answer)
        else { return nil }
        var keys: SIPSRTPKeys?
        if !cryptos.isEmpty {
            // RFC 4568 §7.1.2: one crypto line with the tag and suite of one of ours; anything else, no video.
            let theirs = answered.cryptos
            guard theirs.count == 1, let their = theirs.first, their.isUsableForOneKey,
                  let ours = cryptos.first(where: { $0.tag == their.tag && $0.suite == their.suite })
            else { return nil }
            keys = SIPSRTPKeys(suite: ours.suite, tag: ours.tag, local: ours.keySalt, remote: their.keySalt)
        }
        let feedback = Set(vp8.feedback.map { $0.lowercased() })
        return SIPVideoAnswerer.Answer(
            index: index, section: section, payloadType: vp8.payloadType, remoteAddress: remote, remotePort: answered.port,
            direction: answered.effectiveDirection.reversed,
            acceptsKeyframeRequests: transport.hasSuffix("F") || feedback.contains("nack pli") || feedback.contains("ccm fir"),
            srtp: keys)
    }
}
