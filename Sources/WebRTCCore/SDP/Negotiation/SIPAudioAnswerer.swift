/// Answers the SDP offer of a plain SIP audio call (RFC 3264 offer/answer over RTP/AVP, RFC 3551):
/// one audio stream, the first codec of `preference` the offer carries, and telephone-event/8000
/// (RFC 4733 §7.1.1) when offered. Parsing and writing go through `SessionDescription`.
///
/// RFC 3264 §6: the answer has one m= line per offered one, in order; every section but the chosen audio
/// one is refused with port 0. Payload types keep the offer's numbers (§6.1).
public struct SIPAudioAnswerer: Sendable {
    /// Codecs in the order we prefer them.
    public var preference: [SIPAudioCodec]
    /// Our RTP address (c= of the answer) and port.
    public var address: String
    public var port: UInt16
    /// `o=` session id and version of the answer.
    public var sessionID: String
    public var sessionVersion: UInt64

    public init(
        preference: [SIPAudioCodec] = [.pcmu, .pcma, .opus], address: String, port: UInt16, sessionID: String,
        sessionVersion: UInt64 = 1
    ) {
        self.preference = preference
        self.address = address
        self.port = port
        self.sessionID = sessionID
        self.sessionVersion = sessionVersion
    }

    /// The chosen stream and the answer to send.
    public struct Answer: Hashable, Sendable {
        public var session: SessionDescription
        public var codec: SIPAudioCodec
        public var payloadType: UInt8
        /// The offer's telephone-event/8000 payload type, when it had one.
        public var telephoneEventPayloadType: UInt8?
        /// Where to send RTP.
        public var remoteAddress: String
        public var remotePort: UInt16
        /// Our direction in the answer (the offer's, reversed).
        public var direction: MediaDirection
    }

    public func answer(_ offer: SessionDescription) throws(SIPAudioAnswerError) -> Answer {
        let audio = offer.media.indices.filter { offer.media[$0].kind == .audio && offer.media[$0].port != 0 }
        guard !audio.isEmpty else { throw .noAudio }
        let plain = audio.filter { offer.media[$0].transportProtocol.uppercased() == "RTP/AVP" }
        guard !plain.isEmpty else {
            if audio.contains(where: { offer.media[$0].transportProtocol.uppercased() == "RTP/SAVP" }) {
                throw .sdesNotSupported
            }
            throw .noCommonCodec(offered: audio.map { offer.media[$0].transportProtocol })
        }
        for index in plain {
            let section = offer.media[index]
            guard let (codec, format) = choose(in: section) else { continue }
            guard let remote = Self.connectionAddress(section: section, session: offer) else {
                throw .missingConnectionAddress
            }
            let telephoneEvent = section.payloads.first { $0.rtpmap?.matches("telephone-event", clockRate: 8000) == true }
            let direction = section.effectiveDirection.reversed
            var chosen = MediaDescription(kind: .audio, port: port, transportProtocol: "RTP/AVP", direction: direction)
            chosen.payloads = [RTPPayloadFormat(payloadType: format.payloadType, rtpmap: codec.rtpmap)]
            if let telephoneEvent {
                chosen.payloads.append(RTPPayloadFormat(
                    payloadType: telephoneEvent.payloadType,
                    rtpmap: RTPMap(encodingName: "telephone-event", clockRate: 8000), parameters: "0-15"))
            }
            chosen.otherAttributes = [SDPAttribute(name: "ptime", value: "20")]
            let media = offer.media.enumerated().map { offset, offered in
                offset == index ? chosen : Self.refused(offered)
            }
            let addressType = address.contains(":") ? "IP6" : "IP4"
            let session = SessionDescription(
                origin: SDPOrigin(
                    username: "intercom", sessionID: sessionID, sessionVersion: sessionVersion, addressType: addressType,
                    address: address),
                sessionName: "-", otherLines: [SDPLine(type: "c", value: "IN \(addressType) \(address)")], media: media)
            return Answer(
                session: session, codec: codec, payloadType: format.payloadType,
                telephoneEventPayloadType: telephoneEvent?.payloadType, remoteAddress: remote, remotePort: section.port,
                direction: direction)
        }
        let offered = plain.flatMap { offer.media[$0].payloads }.map { format in
            format.rtpmap.map { "\($0.encodingName)/\($0.clockRate)" } ?? String(format.payloadType)
        }
        throw .noCommonCodec(offered: offered)
    }

    private func choose(in section: MediaDescription) -> (SIPAudioCodec, RTPPayloadFormat)? {
        for codec in preference {
            if let format = section.payloads.first(where: codec.matches) { return (codec, format) }
        }
        return nil
    }

    /// RFC 3264 §6: a refused stream keeps its media type and protocol, port 0, and one of its formats.
    private static func refused(_ offered: MediaDescription) -> MediaDescription {
        var section = MediaDescription(
            kind: offered.kind, port: 0, transportProtocol: offered.transportProtocol, formats: offered.formats)
        if let first = offered.payloads.first { section.payloads = [RTPPayloadFormat(payloadType: first.payloadType)] }
        return section
    }

    /// The media-level `c=` address, else the session-level one (RFC 8866 §5.7).
    static func connectionAddress(section: MediaDescription, session: SessionDescription) -> String? {
        for lines in [section.otherLines, session.otherLines] {
            guard let line = lines.first(where: { $0.type == "c" }) else { continue }
            let fields = line.value.split(separator: " ")
            guard fields.count == 3, fields[0] == "IN", fields[1] == "IP4" || fields[1] == "IP6" else { return nil }
            // A multicast c= carries a TTL (`/ttl`); we only unicast, so keep the address part.
            let address = fields[2].split(separator: "/").first.map(String.init) ?? ""
            return address.isEmpty ? nil : address
        }
        return nil
    }
}
