/// Builds our answer to a browser's offer (RFC 3264 §6, RFC 8829 JSEP §5.3, RFC 9143 for BUNDLE).
///
/// Accepted sections reuse the offer's payload type and extmap ids; RTX, RED, FEC and other codecs are
/// left out; unsupported sections (data channels, a second audio line, …) are rejected with port 0.
public enum SDPAnswerBuilder {
    /// The only transport profile we run: DTLS-SRTP with RTCP feedback over UDP (RFC 5764 §8).
    public static let mediaProtocol = "UDP/TLS/RTP/SAVPF"

    public static func answer(
        to offer: SessionDescription, local: SDPLocalEndpoint, capabilities: MediaCapabilities = .intercom()
    ) throws(SDPNegotiationError) -> SessionDescription {
        let activeSections = offer.media.filter { $0.port != 0 }
        let bundle = offer.bundleMids
        if bundle == nil, activeSections.count > 1 { throw .bundleRequired }

        var answer = SessionDescription(
            origin: local.origin, msidSemantic: "WMS \(local.streamID)")
        var usedKinds: Set<MediaKind> = []
        var acceptedMids: [String] = []
        for (index, offered) in offer.media.enumerated() {
            guard let mid = offered.mid else { throw .missingMid(index: index) }
            let inBundle = bundle?.contains(mid) ?? true
            guard offered.port != 0, inBundle, !usedKinds.contains(offered.kind),
                let section = try accept(offered, mid: mid, offer: offer, local: local, capabilities: capabilities)
            else {
                answer.media.append(rejected(offered))
                continue
            }
            usedKinds.insert(offered.kind)
            acceptedMids.append(mid)
            answer.media.append(section)
        }
        guard !acceptedMids.isEmpty else { throw .noCompatibleMedia }
        if let bundle {
            answer.groups = [.bundle(bundle.filter(acceptedMids.contains))]
        }
        return answer
    }

    /// Our section for an offered one, or nil when we cannot take it.
    private static func accept(
        _ offered: MediaDescription, mid: String, offer: SessionDescription, local: SDPLocalEndpoint,
        capabilities: MediaCapabilities
    ) throws(SDPNegotiationError) -> MediaDescription? {
        guard offered.transportProtocol == mediaProtocol, offered.rtcpMux,
            let (template, wanted) = capabilities.template(for: offered.kind),
            let templateMap = template.rtpmap,
            let chosen = offered.payload(named: templateMap.encodingName, clockRate: templateMap.clockRate)
        else { return nil }

        let remote = offer.transport(for: offered)
        guard remote.iceUfrag != nil, remote.icePassword != nil else { throw .missingICECredentials(mid: mid) }
        guard !remote.fingerprints.isEmpty else { throw .missingFingerprint(mid: mid) }
        let setup = try answerSetup(to: remote.setup)

        var format = template
        format.payloadType = chosen.payloadType
        // RFC 4585 §4.2: an answer may only keep feedback the offer listed.
        format.feedback = template.feedback.filter(chosen.feedback.contains)
        let offeredDirection = offered.effectiveDirection
        let direction = MediaDirection(
            sends: wanted.sends && offeredDirection.receives, receives: wanted.receives && offeredDirection.sends)
        let acceptedURIs = Set(capabilities.headerExtensions.map(\.uri))
        let extensions = offered.headerExtensions
            .filter { acceptedURIs.contains($0.uri) && $0.applies(to: offered.kind) }
            .map { HeaderExtensionMap(id: $0.id, uri: $0.uri) }
        return local.section(
            kind: offered.kind, mid: mid, format: format, direction: direction,
            transport: local.transport(setup: setup, iceOptions: capabilities.iceOptions),
            headerExtensions: extensions, reducedSize: offered.rtcpReducedSize)
    }

    /// RFC 8842 §5.2 / RFC 4145 §4.1: answer `active` to `actpass`/`passive`, `passive` to `active`;
    /// an offer without `a=setup` is `active` by default.
    static func answerSetup(to remote: DTLSSetupRole?) throws(SDPNegotiationError) -> DTLSSetupRole {
        switch remote {
        case .actpass, .passive: .active
        case .active, nil: .passive
        case .holdconn: throw .incompatibleSetup(local: nil, remote: .holdconn)
        }
    }

    /// RFC 3264 §6: a rejected stream keeps its media, protocol and formats, with port 0 and its mid.
    private static func rejected(_ offered: MediaDescription) -> MediaDescription {
        MediaDescription(
            kind: offered.kind, port: 0, transportProtocol: offered.transportProtocol, formats: offered.formats,
            payloads: offered.payloads.map { RTPPayloadFormat(payloadType: $0.payloadType) }, mid: offered.mid,
            otherLines: [SDPLine(type: "c", value: "IN IP4 0.0.0.0")])
    }
}
