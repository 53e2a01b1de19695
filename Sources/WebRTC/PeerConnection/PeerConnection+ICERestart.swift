import WebRTCCore

/// An ICE restart from our side (RFC 8445 §9, JSEP RFC 8829 §3.5.1) when the host's addresses changed: a new
/// gathering on today's addresses and a re-offer with new ICE credentials; DTLS, SRTP, the streams and their
/// SSRCs carry on unchanged, so the peer's media resumes as soon as a new pair is selected. We restart as the
/// offerer; as the answerer we follow the peer's restart (its re-offer with new credentials).
extension PeerConnection {
    /// Whether an ICE restart offer of ours awaits the peer's answer.
    var restartPending: Bool { restartOffer != nil }

    /// Gathers again and returns the re-offer to send; candidates follow as `.localCandidate` events and the
    /// peer's answer goes to `acceptAnswer` as usual.
    public func restartICE() async throws(PeerConnectionError) -> String {
        guard role == .offerer, session != nil, !isClosed else {
            throw .invalidState(call: "restartICE", state: signalingState)
        }
        let credentials: ICECredentials
        do { credentials = try await ice.regather() } catch { throw .ice(call: "regather", error) }
        local.iceUfrag = credentials.ufrag
        local.icePassword = credentials.pwd
        local.sessionVersion += 1  // RFC 3264 §8: a changed description has a higher version
        let offer = SDPOfferBuilder.offer(local: local, capabilities: configuration.capabilities)
        restartOffer = offer
        remoteCredentialsApplied = false  // candidates of the peer's new generation wait for its answer
        pendingRemoteCandidates = []
        pendingRemoteEndOfCandidates = false
        do { try await ice.startGathering() } catch { throw .ice(call: "startGathering", error) }
        return offer.serialized()
    }

    /// The peer's answer to our restart offer: only its new ICE credentials and candidates are taken.
    func acceptRestartAnswer(_ answer: SessionDescription, to offer: SessionDescription) async throws(PeerConnectionError) {
        let negotiated: NegotiatedSession
        do { negotiated = try NegotiatedSession(local: offer, remote: answer) } catch { throw .negotiation(error) }
        restartOffer = nil
        localDescription = offer
        session?.remoteICEUfrag = negotiated.remoteICEUfrag
        session?.remoteICEPassword = negotiated.remoteICEPassword
        do {
            try await ice.setRemoteCredentials(ufrag: negotiated.remoteICEUfrag, pwd: negotiated.remoteICEPassword)
        } catch {
            throw .ice(call: "setRemoteCredentials", error)
        }
        remoteCredentialsApplied = true
        let queued = negotiated.remoteCandidates.map { "candidate:" + $0 } + pendingRemoteCandidates
        pendingRemoteCandidates = []
        for candidate in queued { try? await addRemote(candidate) }
        if negotiated.remoteEndOfCandidates || pendingRemoteEndOfCandidates { try? await remoteCandidatesComplete() }
    }

    /// The peer's re-offer in a running session: with new ICE credentials it restarts ICE (ours change too,
    /// RFC 8445 §9.1.1; our candidates are signalled again, libnice does not re-emit them); without, it
    /// changes nothing we support and gets the same answer again.
    func acceptRestartOffer(_ offer: SessionDescription) async throws(PeerConnectionError) -> String {
        let answer: SessionDescription
        let negotiated: NegotiatedSession
        do {
            let probe = try SDPAnswerBuilder.answer(to: offer, local: local, capabilities: configuration.capabilities)
            negotiated = try NegotiatedSession(local: probe, remote: offer)
        } catch {
            throw .negotiation(error)
        }
        guard negotiated.remoteICEUfrag != session?.remoteICEUfrag || negotiated.remoteICEPassword != session?.remoteICEPassword
        else { return localDescription?.serialized() ?? "" }
        let credentials: ICECredentials
        do { credentials = try await ice.restart() } catch { throw .ice(call: "restart", error) }
        local.iceUfrag = credentials.ufrag
        local.icePassword = credentials.pwd
        local.sessionVersion += 1
        do {
            answer = try SDPAnswerBuilder.answer(to: offer, local: local, capabilities: configuration.capabilities)
        } catch {
            throw .negotiation(error)
        }
        localDescription = answer
        session?.remoteICEUfrag = negotiated.remoteICEUfrag
        session?.remoteICEPassword = negotiated.remoteICEPassword
        do {
            try await ice.setRemoteCredentials(ufrag: negotiated.remoteICEUfrag, pwd: negotiated.remoteICEPassword)
        } catch {
            throw .ice(call: "setRemoteCredentials", error)
        }
        // libnice forgot every remote candidate, also those of the new generation that arrived before the re-offer.
        let known = remoteCandidateLines
        remoteCandidateLines = []
        for candidate in negotiated.remoteCandidates.map({ "candidate:" + $0 }) + known { try? await addRemote(candidate) }
        if negotiated.remoteEndOfCandidates { try? await remoteCandidatesComplete() }
        for candidate in ice.localCandidates {
            eventSink.yield(.localCandidate(candidate: candidate, sdpMid: bundleMid, sdpMLineIndex: bundleIndex))
        }
        eventSink.yield(.localCandidatesComplete)
        return answer.serialized()
    }
}
