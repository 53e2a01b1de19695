/// The offer of a plain SIP audio call the device places (RFC 3264 §5 over RTP/AVP, RFC 3551) and the reading
/// of its answer (§6, §6.1): one sendrecv audio stream with our codecs (G.711 under their static payload
/// types, Opus under 111 as `opus/48000/2`, RFC 7587 §7) in preference order,
/// telephone-event/8000 (RFC 4733 §7.1.1; with Opus also telephone-event/48000, §2.1) and ptime 20.
///
/// With `srtp` mandatory the stream is RTP/SAVP with two crypto lines of fresh keys, AES_CM_128_HMAC_SHA1_80
/// (tag 1) then _32 (tag 2) (RFC 4568 §7.1.1: in order of preference). Optional and off offer RTP/AVP: an
/// a=crypto on an RTP/AVP line ("best-effort SRTP") is outside RFC 4568 and peers handle it differently.
public struct SIPAudioOfferer: Sendable {
    /// In order of preference (RFC 3264 §5.1: the offer lists formats that way).
    public var codecs: [SIPAudioCodec]
    /// Our RTP address (c=) and port (m=).
    public var address: String
    public var port: UInt16
    public var sessionID: String
    /// Our crypto lines (empty unless `srtp` is mandatory); the answer picks one by tag.
    public let cryptos: [SDPCrypto]
    /// Dynamic payload types for telephone-event (RFC 3551 §6: 96–127) at 8 and (with Opus) 48 kHz.
    public static let telephoneEventPayloadType: UInt8 = 101
    public static let wideTelephoneEventPayloadType: UInt8 = 102

    public init(codecs: [SIPAudioCodec] = [.pcmu, .pcma], address: String, port: UInt16, sessionID: String,
                srtp: SIPSRTPMode = .off) {
        self.codecs = codecs
        self.address = address
        self.port = port
        self.sessionID = sessionID
        cryptos = srtp != .mandatory ? [] : SDPCrypto.Suite.allCases.enumerated().map { offset, suite in
            SDPCrypto(tag: UInt32(offset + 1), suite: suite, keySalt: SIPSRTPKeys.freshKeySalt(for: suite))
        }
    }

    private var transportProtocol: String { cryptos.isEmpty ? "RTP/AVP" : "RTP/SAVP" }

    public var offer: SessionDescription {
        var audio = MediaDescription(kind: .audio, port: port, transportProtocol: transportProtocol, direction: .sendrecv)
        audio.payloads = codecs.map { codec in
            RTPPayloadFormat(payloadType: codec.offeredPayloadType, rtpmap: codec.rtpmap, parameters: codec.formatParameters)
        } + [RTPPayloadFormat(payloadType: Self.telephoneEventPayloadType,
                              rtpmap: RTPMap(encodingName: "telephone-event", clockRate: 8000), parameters: "0-15")]
          + (codecs.contains(.opus) ? [RTPPayloadFormat(payloadType: Self.wideTelephoneEventPayloadType,
                                                          rtpmap: RTPMap(encodingName: "telephone-event", clockRate: 48000),
                                                          parameters: "0-15")] : [])
        audio.otherAttributes = cryptos.map(\.attribute) + [SDPAttribute(name: "ptime", value: "20")]
        let addressType = address.contains(":") ? "IP6" : "IP4"
        return SessionDescription(
            origin: SDPOrigin(username: "intercom", sessionID: sessionID, sessionVersion: 1, addressType: addressType,
                              address: address),
            sessionName: "-", otherLines: [SDPLine(type: "c", value: "IN \(addressType) \(address)")], media: [audio])
    }

    /// Reads the answer: its first m= line answers our audio stream (§6: same count and order); port 0 means
    /// refused. The codec is the answer's first format that is one of ours (the answerer's preference), with
    /// the answer's payload type; telephone-event when the answer kept it; our direction is the answer's
    /// reversed; for RTP/SAVP the keys of the answer's crypto line and of ours with the same tag and suite.
    /// The result's `session` is our offer.
    public func accept(_ answer: SessionDescription) throws(SIPAudioAnswerError) -> SIPAudioAnswerer.Answer {
        guard let section = answer.media.first, section.kind == .audio, section.port != 0 else { throw .noAudio }
        let answered = section.transportProtocol.uppercased()
        guard answered == transportProtocol else {
            if answered == "RTP/AVP" || answered == "RTP/SAVP" {
                throw .transportMismatch(offered: transportProtocol, answered: section.transportProtocol)
            }
            throw .noCommonCodec(offered: [section.transportProtocol])
        }
        let keys = try srtpKeys(section)
        let chosen = section.payloads.lazy.compactMap { format in
            codecs.first { $0.matches(format) }.map { ($0, format) }
        }.first
        guard let (codec, format) = chosen else {
            throw .noCommonCodec(offered: section.payloads.map { format in
                format.rtpmap.map { "\($0.encodingName)/\($0.clockRate)" } ?? String(format.payloadType)
            })
        }
        guard let remote = SIPAudioAnswerer.connectionAddress(section: section, session: answer) else {
            throw .missingConnectionAddress
        }
        let telephoneEvent = SIPAudioAnswerer.telephoneEvent(in: section, for: codec)
        return SIPAudioAnswerer.Answer(
            session: offer, codec: codec, payloadType: format.payloadType,
            telephoneEventPayloadType: telephoneEvent?.format.payloadType,
            telephoneEventClockRate: telephoneEvent?.clockRate ?? 8000, remoteAddress: remote, remotePort: section.port,
            direction: section.effectiveDirection.reversed, srtp: keys)
    }

    /// RFC 4568 §7.1.1/§7.1.2: the answer carries one crypto line with the tag and suite of one of ours.
    private func srtpKeys(_ section: MediaDescription) throws(SIPAudioAnswerError) -> SIPSRTPKeys? {
        guard !cryptos.isEmpty else { return nil }
        let answered = section.cryptos
        guard let theirs = answered.first, answered.count == 1, theirs.isUsableForOneKey,
              let ours = cryptos.first(where: { $0.tag == theirs.tag && $0.suite == theirs.suite }) else {
            throw .cryptoMismatch
        }
        return SIPSRTPKeys(suite: ours.suite, tag: ours.tag, local: ours.keySalt, remote: theirs.keySalt)
    }
}
