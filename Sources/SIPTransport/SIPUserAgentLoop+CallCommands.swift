import SIPCore

/// The coordinator's commands for a call (ring, answer, refuse, hangup), the 2xx retransmission until the ACK
/// (RFC 3261 §13.3.1.4) and BYE (§15.1.1). A command for a call that is gone, or in the wrong phase, is a no-op.
extension SIPUserAgentLoop {
    var callTimers: SIPTimerValues { settings.callTimers }

    func ring(_ callID: String) {
        guard let call = pendingCall(callID) else { return }
        let ringing = ResponseBuilder.response(to: call.invite, status: 180, reason: "Ringing", toTag: call.localTag,
                                               extraHeaders: dialogHeaders(call))
        logger.info("SIP call ringing", metadata: ["call": "\(callID)"])
        serverEvent(call.inviteKey, .respond(ringing))
    }

    func answerCall(_ callID: String, sdp: String) {
        guard var call = pendingCall(callID) else { return }
        call.answeredSDP = Array(sdp.utf8)
        call.phase = .answered
        calls[callID] = call
        logger.notice("SIP call answered", metadata: ["call": "\(callID)"])
        sendOK(okResponse(to: call.invite, call: call), callID: callID, key: call.inviteKey)
    }

    func refuse(_ callID: String, status: Int, reason: String) {
        guard (300..<700).contains(status), let call = pendingCall(callID) else { return }
        removeCall(callID)
        logger.notice("SIP call refused", metadata: ["call": "\(callID)", "status": "\(status)"])
        // The transaction retransmits it (timer G) and absorbs the caller's ACK (§17.2.1).
        serverEvent(call.inviteKey, .respond(ResponseBuilder.response(to: call.invite, status: status, reason: reason, toTag: call.localTag)))
    }

    func hangup(_ callID: String) {
        if outgoing[callID] != nil {
            hangupOutgoing(callID)
            return
        }
        guard var call = calls[callID] else { return }
        if call.phase == .offered {
            refuse(callID, status: 480, reason: "Temporarily Unavailable")
        } else if call.awaitingAck {
            // §15: the callee must not send BYE before the ACK for its 2xx (or timer H).
            call.hangupPending = true
            calls[callID] = call
        } else {
            removeCall(callID)
            logger.notice("SIP call hung up", metadata: ["call": "\(callID)"])
            sendBye(call)
        }
    }

    /// `stop()`: a pending INVITE gets 480, an answered call a BYE, both sent once (no waiting).
    func endCallsForStop() {
        for call in calls.values {
            if call.phase == .offered {
                refuse(call.callID, status: 480, reason: "Temporarily Unavailable")
            } else {
                removeCall(call.callID)
                logger.notice("SIP call hung up (stopping)", metadata: ["call": "\(call.callID)"])
                sendBye(call)
            }
        }
    }

    /// Sends a 2xx through its transaction (which ends with it) and retransmits it, T1 doubling to T2, until
    /// the ACK or 64*T1 (§13.3.1.4); over TCP only the wait for the ACK.
    func sendOK(_ ok: SIPMessage, callID: String, key: TransactionKey) {
        guard var call = calls[callID] else { return }
        call.okResponse = ok
        call.okKey = key
        call.awaitingAck = true
        call.okInterval = callTimers.t1
        calls[callID] = call
        if case .udp = call.route { deadlines.start(.okRetransmit(callID: callID), at: now() + callTimers.t1) }
        deadlines.start(.okTimeout(callID: callID), at: now() + callTimers.transactionTimeout)
        serverEvent(key, .respond(ok))
    }

    func retransmitOK(_ callID: String) {
        guard var call = calls[callID], call.awaitingAck, let ok = call.okResponse else { return }
        guard send(ok, over: call.route) else {
            endCall(callID, reason: .transport("cannot send to the caller"))
            return
        }
        call.okInterval = min(call.okInterval * 2, callTimers.t2)
        calls[callID] = call
        deadlines.start(.okRetransmit(callID: callID), at: now() + call.okInterval)
    }

    /// No ACK within 64*T1: the session is ended with BYE (§13.3.1.4).
    func okTimedOut(_ callID: String) {
        guard let call = calls[callID], call.awaitingAck else { return }
        sendBye(call)
        if call.hangupPending {
            removeCall(callID)
            logger.notice("SIP call hung up (no ACK came)", metadata: ["call": "\(callID)"])
        } else {
            endCall(callID, reason: .noAck)
        }
    }

    func ackReceived(_ callID: String) {
        guard var call = calls[callID] else { return }
        let first = call.phase == .answered
        call.awaitingAck = false
        call.phase = .confirmed
        calls[callID] = call
        deadlines.cancel(.okRetransmit(callID: callID))
        deadlines.cancel(.okTimeout(callID: callID))
        if call.hangupPending {
            removeCall(callID)
            logger.notice("SIP call hung up", metadata: ["call": "\(callID)"])
            sendBye(call)
        } else if first {
            logger.notice("SIP call confirmed", metadata: ["call": "\(callID)"])
            agent.onCall(.confirmed(callID: callID))
        }
    }

    /// BYE in the dialog (§15.1.1) as a non-INVITE client transaction to the remote target (§12.2.1.1).
    func sendBye(_ call: SIPCall) {
        var dialog = call.dialog
        let transport = if case .udp = call.route { "UDP" } else { "TCP" }
        let via = Via(transport: transport, host: call.contact.host, port: call.contact.port,
                      parameters: [SIPParameter("branch", Via.magicCookie + token()), SIPParameter("rport")])
        let bye = dialog.makeRequest(.bye, via: via)
        startClient(bye, purpose: .bye, destination: requestDestination(call), timers: callTimers)
    }

    /// A 2xx to an INVITE of this call: our SDP, Contact and the Record-Route copied (§12.1.1, §13.3.1.4).
    func okResponse(to request: SIPMessage, call: SIPCall) -> SIPMessage {
        ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: call.localTag,
                                 extraHeaders: dialogHeaders(call) + [SIPHeader(SIPHeaderName.contentType, "application/sdp")],
                                 body: call.answeredSDP)
    }

    /// Record-Route (copied, §12.1.1), Contact and Allow of a dialog-creating response.
    private func dialogHeaders(_ call: SIPCall) -> [SIPHeader] {
        call.invite.values(SIPHeaderName.recordRoute).map { SIPHeader(SIPHeaderName.recordRoute, $0) } + [
            SIPHeader(SIPHeaderName.contact, NameAddress(uri: call.contact).serialized),
            SIPHeader(SIPHeaderName.allow, Self.allowedMethods.map(\.rawValue).joined(separator: ", ")),
        ]
    }

    private func pendingCall(_ callID: String) -> SIPCall? {
        guard let call = calls[callID], call.phase == .offered, servers[call.inviteKey] != nil else { return nil }
        return call
    }

    /// The first hop of a request in the dialog: the first Route, else the remote target (§12.2.1.1, §8.1.2);
    /// the INVITE's source when that does not resolve. Over TCP, the connection the INVITE came on.
    private func requestDestination(_ call: SIPCall) -> ReplyRoute {
        guard case .udp = call.route else { return call.route }
        let hop = call.dialog.routeSet.first?.uri ?? call.dialog.remoteTarget
        guard let address = try? SIPSocketAddress.resolve(host: hop.host, port: Int(hop.port ?? 5060), datagram: true) else {
            return call.route
        }
        return .udp(address)
    }

    /// `sip:user@<local address toward the caller>:<bound port>`, as REGISTER's Contact (over a connection
    /// the caller opened: its local address, the listener's port and `;transport=tcp`).
    func localContact(for route: ReplyRoute) -> SIPURI {
        let port = UInt16(udp?.local.port ?? 0)
        switch route {
        case .udp(let source):
            if let local = try? SIPSocketAddress.localAddress(toward: source) {
                return SIPURI(user: settings.user, host: local.uriHost, port: port)
            }
        case .inbound(let id):
            if let connection = inbound[id] { return contactURI(host: connection.local.uriHost) }
        case .stream: break
        }
        return registration?.config.contact ?? SIPURI(user: settings.user, host: "127.0.0.1", port: port)
    }
}
