/// Answers the SDP offer of a plain SIP audio call (RFC 3264 offer/answer over RTP/AVP, RFC 3551, or RTP/SAVP
/// with SDES keys, RFC 4568, as `srtp` allows): one audio stream, the first codec of `preference` the offer
/// carries (PCMU, PCMA or Opus, RFC 7587), and telephone-event (RFC 4733 §7.1.1) when offered: at the codec's
/// clock rate when the offer has it (§2.1; telephone-event/48000 beside Opus), else telephone-event/8000. Parsing and writing go through
/// `SessionDescription`.
///
/// With `srtp` optional or mandatory an RTP/SAVP section is preferred to an RTP/AVP one; it is answered with
/// the first usable crypto line's tag and suite and a fresh key of ours (RFC 4568 §7.1.1, §6.1).
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
    /// Which of RTP/AVP and RTP/SAVP offers are answered.
    public var srtp: SIPSRTPMode

    public init(
        preference: [SIPAudioCodec] = [.pcmu, .pcma, .opus], address: String, port: UInt16, sessionID: String,
        sessionVersion: UInt64 = 1, srtp: SIPSRTPMode = .off
    ) {
        self.preference = preference
        self.srtp = srtp
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
        /// The offer's telephone-event payload type, when it had one.
        public var telephoneEventPayloadType: UInt8?
        /// Its clock rate: the codec's (RFC 4733 §2.1) or 8000.
        public var telephoneEventClockRate: UInt32
        /// Where to send RTP.
        public var remoteAddress: String
        public var remotePort: UInt16
        /// Our direction in the answer (the offer's, reversed).
        public var direction: MediaDirection
        /// The SDES keys when the stream is RTP/SAVP; nil for plain RTP/AVP.
        public var srtp: SIPSRTPKeys?

        public init(session: SessionDescription, codec: SIPAudioCodec, payloadType: UInt8, telephoneEventPayloadType: UInt8?,
                    telephoneEventClockRate: UInt32 = 8000, remoteAddress: String, remotePort: UInt16,
                    direction: MediaDirection, srtp: SIPSRTPKeys? = nil) {
            self.session = session
            self.codec = codec
            self.payloadType = payloadType
            self.telephoneEventPayloadType = telephoneEventPayloadType
            self.telephoneEventClockRate = telephoneEventClockRate
            self.remoteAddress = remoteAddress
            self.remotePort = remotePort
            self.direction = direction
            self.srtp = srtp
        }
    }

    public func answer(_ offer: SessionDescription) throws(SIPAudioAnswerError) -> Answer {
        let audio = offer.media.indices.filter { offer.media[$0].kind == .audio && offer.media[$0].port != 0 }
        guard !audio.isEmpty else { throw .noAudio }
        let secure = audio.filter { offer.media[$0].transportProtocol.uppercased() == "RTP/SAVP" }
        let plain = audio.filter { offer.media[$0].transportProtocol.uppercased() == "RTP/AVP" }
        // SRTP first where allowed: a PBX offering both (two m= lines) gets the protected one.
        let candidates = (srtp == .off ? [] : secure) + (srtp == .mandatory ? [] : plain)
        guard !candidates.isEmpty else {
            if srtp == .off, !secure.isEmpty { throw .srtpOff }
            if srtp == .mandatory, !plain.isEmpty { throw .srtpRequired }
            throw .noCommonCodec(offered: audio.map { offer.media[$0].transportProtocol })
        }
        var unusableCrypto: [String]?
        for index in candidates {
            let section = offer.media[index]
            guard let (codec, format) = choose(in: section) else { continue }
            var keys: SIPSRTPKeys?
            if secure.contains(index) {
                guard let crypto = section.cryptos.first(where: \.isUsableForOneKey) else {
                    unusableCrypto = Self.offeredSuites(section)
                    continue
                }
                keys = SIPSRTPKeys(suite: crypto.suite, tag: crypto.tag, local: SIPSRTPKeys.freshKeySalt(for: crypto.suite),
                                   remote: crypto.keySalt)
            }
            guard let remote = Self.connectionAddress(section: section, session: offer) else {
                throw .missingConnectionAddress
            }
            let telephoneEvent = Self.telephoneEvent(in: section, for: codec)
            let direction = section.effectiveDirection.reversed
            var chosen = MediaDescription(kind: .audio, port: port, transportProtocol: keys == nil ? "RTP/AVP" : "RTP/SAVP",
                                          direction: direction)
            // RFC 7587 §7: opus is answered as `opus/48000/2` under the offer's payload type (RFC 3264 §6.1).
            chosen.payloads = [RTPPayloadFormat(payloadType: format.payloadType, rtpmap: codec.rtpmap,
                                                parameters: codec.formatParameters)]
            if let telephoneEvent {
                chosen.payloads.append(RTPPayloadFormat(
                    payloadType: telephoneEvent.format.payloadType,
                    rtpmap: RTPMap(encodingName: "telephone-event", clockRate: telephoneEvent.clockRate), parameters: "0-15"))
            }
            // RFC 4568 §7.1.1: exactly one crypto line in the answer, with the accepted tag and suite.
            let crypto = keys.map { [SDPCrypto(tag: $0.tag, suite: $0.suite, keySalt: $0.local).attribute] } ?? []
            chosen.otherAttributes = crypto + [SDPAttribute(name: "ptime", value: "20")]
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
                telephoneEventPayloadType: telephoneEvent?.format.payloadType,
                telephoneEventClockRate: telephoneEvent?.clockRate ?? 8000, remoteAddress: remote, remotePort: section.port,
                direction: direction, srtp: keys)
        }
        if let unusableCrypto { throw .noUsableCrypto(offered: unusableCrypto) }
        let offered = candidates.flatMap { offer.media[$0].payloads }.map { format in
            format.rtpmap.map { "\($0.encodingName)/\($0.clockRate)" } ?? String(format.payloadType)
        }
        throw .noCommonCodec(offered: offered)
    }

    /// The suite field of each a=crypto line, parsable or not (for the 488's reason).
    private static func offeredSuites(_ section: MediaDescription) -> [String] {
        section.otherAttributes.filter { $0.name == "crypto" }.map { attribute in
            let fields = (attribute.value ?? "").split(separator: " ")
            return fields.count > 1 ? String(fields[1].prefix(40)) : "?"
        }
    }

    /// The section's telephone-event at `codec`'s clock rate (RFC 4733 §2.1), else at 8000 (what most phones
    /// offer beside any codec).
    static func telephoneEvent(in section: MediaDescription, for codec: SIPAudioCodec) -> (format: RTPPayloadFormat, clockRate: UInt32)? {
        for clockRate in [codec.clockRate, 8000] {
            if let format = section.payloads.first(where: { $0.rtpmap?.matches("telephone-event", clockRate: clockRate) == true }) {
                return (format, clockRate)
            }
        }
        return nil
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
