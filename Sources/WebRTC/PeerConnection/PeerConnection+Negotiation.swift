import WebRTCCore

/// Offer/answer (RFC 3264, JSEP RFC 8829) and what a completed exchange sets up: the remote ICE
/// credentials and candidates, the DTLS endpoint in the role `a=setup` gives us (RFC 8842), and our
/// outgoing streams with the negotiated payload types.
extension PeerConnection {
    /// Our offer: bundled audio and video, `a=setup:actpass`. Offerer only, once.
    public func createOffer() async throws(PeerConnectionError) -> String {
        guard role == .offerer, localDescription == nil, !isClosed else {
            throw .invalidState(call: "createOffer", state: signalingState)
        }
        startTasks()
        let offer = SDPOfferBuilder.offer(local: local, capabilities: configuration.capabilities)
        setLocalDescription(offer)
        return offer.serialized()
    }

    /// Applies the peer's answer to our offer.
    public func acceptAnswer(_ sdp: String) async throws(PeerConnectionError) {
        if let restartOffer, !isClosed {
            return try await acceptRestartAnswer(try Self.parse(sdp), to: restartOffer)
        }
        guard role == .offerer, let offer = localDescription, session == nil, !isClosed else {
            throw .invalidState(call: "acceptAnswer", state: signalingState)
        }
        let answer = try Self.parse(sdp)
        let negotiated: NegotiatedSession
        do { negotiated = try NegotiatedSession(local: offer, remote: answer) } catch { throw .negotiation(error) }
        try await apply(negotiated)
    }

    /// Answers the peer's offer: BUNDLE, rtcp-mux, the offer's VP8/Opus payload types, `a=setup:active`
    /// to `actpass`. Answerer only, once. Returns the answer SDP to send.
    public func acceptOffer(_ sdp: String) async throws(PeerConnectionError) -> String {
        if role == .answerer, session != nil, !isClosed {
            return try await acceptRestartOffer(try Self.parse(sdp))
        }
        guard role == .answerer, localDescription == nil, !isClosed else {
            throw .invalidState(call: "acceptOffer", state: signalingState)
        }
        startTasks()
        let offer = try Self.parse(sdp)
        let answer: SessionDescription
        let negotiated: NegotiatedSession
        do {
            answer = try SDPAnswerBuilder.answer(to: offer, local: local, capabilities: configuration.capabilities)
            negotiated = try NegotiatedSession(local: answer, remote: offer)
        } catch {
            throw .negotiation(error)
        }
        setLocalDescription(answer)
        try await apply(negotiated)
        return answer.serialized()
    }

    var signalingState: String {
        switch (localDescription != nil, session != nil) {
        case (false, _): isClosed ? "closed" : "new"
        case (true, false): "have-local-offer"
        case (true, true): isClosed ? "closed" : "stable"
        }
    }

    static func parse(_ sdp: String) throws(PeerConnectionError) -> SessionDescription {
        do { return try SessionDescription(parsing: sdp) } catch { throw .sdp(error) }
    }

    /// Records our description and the mid/index our candidates are signalled under (the first bundled,
    /// accepted section: with BUNDLE every candidate belongs to it, RFC 9143 §10.2).
    private func setLocalDescription(_ description: SessionDescription) {
        localDescription = description
        if let index = description.media.firstIndex(where: { $0.port != 0 }), let mid = description.media[index].mid {
            bundleMid = mid
            bundleIndex = index
        }
    }

    /// Everything a completed exchange sets up. State is set before the first suspension, so candidates
    /// and datagrams arriving meanwhile find the DTLS endpoint and the candidate queue in place.
    private func apply(_ negotiated: NegotiatedSession) async throws(PeerConnectionError) {
        let expected = try FingerprintSelection.remote(negotiated.remoteFingerprints)
        let dtlsRole: DTLSRole = switch negotiated.dtlsRole {
        case .client: .client
        case .server: .server
        }
        do {
            dtls = try DTLSEndpoint(
                role: dtlsRole, certificate: certificate, expectedRemoteFingerprint: expected,
                mtu: configuration.maxPacketSize, handshakeTimeout: configuration.handshakeTimeout)
        } catch {
            throw .dtls(error)
        }
        session = negotiated
        if let media = negotiated.video, media.direction.sends {
            video = try OutboundVideoStream(
                ssrc: local.videoSSRC, payloadType: media.payloadType,
                initialSequenceNumber: .random(in: 0 ... .max), initialPictureID: .random(in: 0 ... 0x7FFF),
                absoluteSendTimeID: media.absoluteSendTimeID, maxPacketSize: configuration.maxPacketSize)
        }
        if let media = negotiated.audio, media.direction.sends {
            audio = OutboundAudioStream(
                ssrc: local.audioSSRC, payloadType: media.payloadType, initialSequenceNumber: .random(in: 0 ... .max),
                initialTimestamp: .random(in: 0 ... .max), absoluteSendTimeID: media.absoluteSendTimeID)
        }
        feedback = RTCPFeedbackInterpreter(videoSSRC: video?.ssrc, audioSSRC: audio?.ssrc)
        do {
            try await ice.setRemoteCredentials(ufrag: negotiated.remoteICEUfrag, pwd: negotiated.remoteICEPassword)
        } catch {
            throw .ice(call: "setRemoteCredentials", error)
        }
        remoteCredentialsApplied = true
        let queued = negotiated.remoteCandidates.map { "candidate:" + $0 } + pendingRemoteCandidates
        pendingRemoteCandidates = []
        for candidate in queued {
            // A candidate libnice cannot parse is one path fewer, not a failed call.
            try? await addRemote(candidate)
        }
        if negotiated.remoteEndOfCandidates || pendingRemoteEndOfCandidates {
            try? await remoteCandidatesComplete()
        }
        updateState()
    }
}
