/// Which side of the DTLS handshake we play, resolved from both `a=setup` values (RFC 8842 §5).
public enum DTLSRole: String, Hashable, Sendable {
    /// We send the ClientHello (`a=setup:active`).
    case client
    /// We wait for the ClientHello (`a=setup:passive`); enter accept state at once.
    case server
}

/// One negotiated media stream, as the transport needs it.
public struct NegotiatedMedia: Hashable, Sendable {
    public var mid: String
    public var payloadType: UInt8
    public var clockRate: UInt32
    /// Our direction: `sends` means we transmit on this mid.
    public var direction: MediaDirection
    /// RTCP feedback both sides listed for the payload type, e.g. `nack pli`.
    public var feedback: [String]
    /// The negotiated abs-send-time extension id, if any.
    public var absoluteSendTimeID: UInt8?
    /// The negotiated audio-level extension id (RFC 6464), if any: the peer's packets carry their level.
    public var audioLevelID: UInt8? = nil
    /// SSRCs the peer announced (`a=ssrc`); may be empty when it relies on the MID extension.
    public var remoteSSRCs: [UInt32]
}

/// The parameters of a completed offer/answer exchange (RFC 3264), whichever side offered.
public struct NegotiatedSession: Hashable, Sendable {
    public var remoteICEUfrag: String
    public var remoteICEPassword: String
    public var remoteFingerprints: [SDPFingerprint]
    public var dtlsRole: DTLSRole
    /// Candidates carried in the remote SDP (values after `candidate:`), from every bundled section.
    public var remoteCandidates: [String]
    public var remoteEndOfCandidates: Bool
    public var audio: NegotiatedMedia?
    public var video: NegotiatedMedia?

    /// Pairs our sections with the peer's by mid. Our description holds one payload per accepted
    /// section (as both builders write it); a section is negotiated when both ports are non-zero and
    /// the peer lists that payload type.
    public init(local: SessionDescription, remote: SessionDescription) throws(SDPNegotiationError) {
        var audio: NegotiatedMedia?
        var video: NegotiatedMedia?
        var transportSection: MediaDescription?
        for (index, ours) in local.media.enumerated() where ours.port != 0 {
            guard let mid = ours.mid else { throw .missingMid(index: index) }
            guard let theirs = remote.media.first(where: { $0.mid == mid }), theirs.port != 0,
                let format = ours.payloads.first, let clockRate = format.rtpmap?.clockRate,
                let remoteFormat = theirs.payloads.first(where: { $0.payloadType == format.payloadType })
            else { continue }
            let absSendTime = ours.headerExtensionID(for: HeaderExtensionMap.absoluteSendTimeURI)
            let audioLevel = ours.headerExtensionID(for: HeaderExtensionMap.audioLevelURI)
            var negotiated = NegotiatedMedia(
                mid: mid, payloadType: format.payloadType, clockRate: clockRate,
                direction: MediaDirection(
                    sends: ours.effectiveDirection.sends && theirs.effectiveDirection.receives,
                    receives: ours.effectiveDirection.receives && theirs.effectiveDirection.sends),
                feedback: format.feedback.filter(remoteFormat.feedback.contains),
                absoluteSendTimeID: theirs.headerExtensionID(for: HeaderExtensionMap.absoluteSendTimeURI) == absSendTime
                    ? absSendTime : nil,
                remoteSSRCs: theirs.ssrcs)
            // Both sides must name the same id (the answer copies the offer's, RFC 8285 §6).
            if let audioLevel, theirs.headerExtensionID(for: HeaderExtensionMap.audioLevelURI) == audioLevel {
                negotiated.audioLevelID = audioLevel
            }
            if ours.kind == .audio, audio == nil { audio = negotiated }
            if ours.kind == .video, video == nil { video = negotiated }
            if transportSection == nil { transportSection = theirs }
        }
        guard let transportSection, let mid = transportSection.mid else { throw .noCompatibleMedia }
        let remoteTransport = remote.transport(for: transportSection)
        guard let ufrag = remoteTransport.iceUfrag, let password = remoteTransport.icePassword else {
            throw .missingICECredentials(mid: mid)
        }
        guard !remoteTransport.fingerprints.isEmpty else { throw .missingFingerprint(mid: mid) }
        let localSection = local.media.first { $0.mid == mid }
        let localSetup = localSection.flatMap { local.transport(for: $0).setup }
        self.remoteICEUfrag = ufrag
        self.remoteICEPassword = password
        self.remoteFingerprints = remoteTransport.fingerprints
        self.dtlsRole = try Self.role(local: localSetup, remote: remoteTransport.setup)
        let bundled = Set(remote.bundleMids ?? [mid])
        let sections = remote.media.filter { $0.mid.map(bundled.contains) ?? false }
        self.remoteCandidates = sections.flatMap(\.candidates)
        self.remoteEndOfCandidates = sections.contains(where: \.endOfCandidates)
        self.audio = audio
        self.video = video
    }

    /// RFC 8842 §5: `active` connects, `passive` accepts; the offerer's `actpass` takes the role the
    /// answer leaves it. RFC 4145 §4.1 defaults a missing value to `active` in an offer.
    static func role(local: DTLSSetupRole?, remote: DTLSSetupRole?) throws(SDPNegotiationError) -> DTLSRole {
        switch (local, remote) {
        case (.active, .passive), (.active, .actpass), (.actpass, .passive):
            return .client
        case (.passive, .active), (.passive, nil), (.actpass, .active), (.actpass, nil):
            return .server
        default:
            throw .incompatibleSetup(local: local, remote: remote)
        }
    }
}
