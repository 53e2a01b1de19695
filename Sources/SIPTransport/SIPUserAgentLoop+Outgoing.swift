import SIPCore

/// Calls the device places (RFC 3261 §13.2): the INVITE goes to the registrar as outbound proxy (§8.1.2) in
/// an INVITE client transaction; 401/407 are answered once with the configured credentials (§22.2, a new
/// CSeq in the same Call-ID); provisional responses become `.progress`, a 2xx is ACKed by us (§13.2.2.4) and
/// becomes `.accepted`, anything else `.rejected`.
extension SIPUserAgentLoop {
    func placeCall(_ callID: String, target: SIPURI, offer: String) {
        guard outgoing[callID] == nil, calls[callID] == nil else {
            logger.warning("SIP: a call with this Call-ID exists; INVITE not sent", metadata: ["call": "\(callID)"])
            return
        }
        guard !stopping, registrar != nil, let config = registration?.config else {
            logger.warning("SIP call not placed: the registrar is not resolved", metadata: ["call": "\(callID)"])
            agent.onCall(.rejected(callID: callID, status: 503, reason: "Service Unavailable"))
            return
        }
        let from = NameAddress(displayName: config.quotedDisplayName, uri: config.addressOfRecord,
                               parameters: [SIPParameter("tag", token(10))])
        let invite = inviteRequest(callID: callID, target: target, from: from, contact: config.contact,
                                   offer: Array(offer.utf8), cseq: 1, authorization: nil)
        guard let key = try? TransactionKey(clientRequest: invite) else { return }
        outgoing[callID] = SIPOutgoingCall(callID: callID, target: target, offer: Array(offer.utf8), from: from,
                                           contact: config.contact, invite: invite, inviteKey: key)
        logger.notice("SIP call placed", metadata: ["call": "\(callID)", "to": "\(target)"])
        startInvite(invite, key: key)
    }

    /// INVITE outside a dialog (§8.1.1): Request-URI and To the target, From our AOR with its tag, Contact as
    /// REGISTER's, the SDP offer.
    private func inviteRequest(callID: String, target: SIPURI, from: NameAddress, contact: SIPURI, offer: [UInt8],
                               cseq: UInt32, authorization: SIPHeader?) -> SIPMessage {
        let via = Via(transport: settings.transport.rawValue, host: contact.host, port: contact.port,
                      parameters: [SIPParameter("branch", Via.magicCookie + token()), SIPParameter("rport")])
        var headers = [
            SIPHeader(SIPHeaderName.via, via.serialized),
            SIPHeader(SIPHeaderName.maxForwards, "70"),
            SIPHeader(SIPHeaderName.from, from.serialized),
            SIPHeader(SIPHeaderName.to, NameAddress(uri: target).serialized),
            SIPHeader(SIPHeaderName.callID, callID),
            SIPHeader(SIPHeaderName.cseq, CSeq(cseq, .invite).serialized),
            SIPHeader(SIPHeaderName.contact, NameAddress(uri: contact).serialized),
            SIPHeader(SIPHeaderName.allow, Self.allowedMethods.map(\.rawValue).joined(separator: ", ")),
            SIPHeader(SIPHeaderName.contentType, "application/sdp"),
        ]
        if let authorization { headers.append(authorization) }
        return SIPMessage(startLine: .request(method: .invite, uri: target), headers: headers, body: offer)
    }

    private func startInvite(_ invite: SIPMessage, key: TransactionKey) {
        let transaction = InviteClientTransaction(request: invite, reliable: reliable, timers: callTimers)
        inviteClients[key] = transaction
        performInvite(key, transaction.start())
    }

    func inviteClientEvent(_ key: TransactionKey, _ event: TransactionEvent) {
        guard var transaction = inviteClients[key] else { return }
        let actions = transaction.handle(event)
        inviteClients[key] = transaction
        performInvite(key, actions)
    }

    private func performInvite(_ key: TransactionKey, _ actions: [TransactionAction]) {
        for action in actions {
            switch action {
            case .send(let message):
                if !sendToRegistrar(message) {
                    inviteClientEvent(key, .transportError)
                    return
                }
            case .startTimer(let timer, let after): deadlines.start(.inviteClient(key, timer), at: now() + after)
            case .cancelTimer(let timer): deadlines.cancel(.inviteClient(key, timer))
            case .deliver(let response): inviteResponse(response, key: key)
            // §8.1.3.1: a timeout is taken as 408, a transport failure as 503.
            case .timedOut: inviteFailed(key, status: 408, reason: "Request Timeout")
            case .transportFailed: inviteFailed(key, status: 503, reason: "Service Unavailable")
            case .terminated:
                inviteClients[key] = nil
                deadlines.cancelAll { if case .inviteClient(key, _) = $0 { true } else { false } }
            }
        }
    }

    private func inviteResponse(_ response: SIPMessage, key: TransactionKey) {
        guard var call = outgoing.values.first(where: { $0.inviteKey == key }), let status = response.statusCode else { return }
        switch status {
        case 100..<200:
            call.phase = .proceeding
            let cancelNow = call.cancelPending
            call.cancelPending = false
            outgoing[call.callID] = call
            if cancelNow {
                sendCancel(call)
            } else if status > 100, !call.cancelled {
                agent.onCall(.progress(callID: call.callID, ringing: status == 180))
            }
        case 200..<300:
            accepted(response, call: call)
        case _ where (status == 401 || status == 407) && !call.cancelled && retryWithCredentials(&call, challenge: response):
            outgoing[call.callID] = call
            startInvite(call.invite, key: call.inviteKey)
        default:
            guard case .response(_, let reason) = response.startLine else { return }
            finish(call, status: status, reason: reason)
        }
    }

    /// A new INVITE answering the challenge (§22.2): once per nonce, again only for a stale one (§22.4).
    private func retryWithCredentials(_ call: inout SIPOutgoingCall, challenge response: SIPMessage) -> Bool {
        guard let password = settings.password, let (challenge, proxy) = DigestChallenge.preferred(in: response),
              call.authAttempts == 0 || (challenge.stale && call.authAttempts < 3)
        else { return false }
        var digest = call.digest ?? DigestClient(credentials: DigestCredentials(username: settings.authUser, password: password))
        guard let value = try? digest.authorization(for: challenge, method: .invite, uri: call.target.serialized, cnonce: token())
        else { return false }
        let sequence = ((try? call.invite.cseq().number) ?? 1) + 1
        let header = SIPHeader(proxy ? SIPHeaderName.proxyAuthorization : SIPHeaderName.authorization, value)
        let invite = inviteRequest(callID: call.callID, target: call.target, from: call.from, contact: call.contact,
                                   offer: call.offer, cseq: sequence, authorization: header)
        guard let key = try? TransactionKey(clientRequest: invite) else { return false }
        call.digest = digest
        call.authAttempts += 1
        call.invite = invite
        call.inviteKey = key
        call.phase = .calling
        logger.info("SIP call: INVITE challenged (\(response.statusCode ?? 0)), sent again with credentials",
                    metadata: ["call": "\(call.callID)"])
        return true
    }

    /// A 2xx: the dialog (§12.1.2), our ACK with a new branch (§13.2.2.4), then `.accepted`; a 2xx to an INVITE
    /// we cancelled is ACKed and ended with BYE (§9.1, §15).
    private func accepted(_ response: SIPMessage, call: SIPOutgoingCall) {
        var call = call
        do throws(SIPError) {
            let dialog = try Dialog(uacRequest: call.invite, response: response)
            let ack = dialog.makeAck(inviteSequence: try call.invite.cseq().number, via: dialogVia(call))
            call.dialog = dialog
            call.ack = ack
            call.phase = .confirmed
            outgoing[call.callID] = call
            _ = send(ack, over: dialogDestination(dialog))
        } catch {
            // No Contact or To tag: no dialog to ACK in or hang up (§12.1.2).
            logger.warning("SIP call: unusable 2xx", metadata: ["call": "\(call.callID)", "error": "\(error)"])
            finish(call, status: 502, reason: "Bad Gateway")
            return
        }
        if call.cancelled {
            hangupOutgoing(call.callID)
            return
        }
        logger.notice("SIP call accepted", metadata: ["call": "\(call.callID)"])
        agent.onCall(.accepted(callID: call.callID, answer: String(decoding: response.body, as: UTF8.self)))
    }

    /// A response outside any transaction: a retransmitted 2xx of a confirmed call gets its ACK again
    /// (§13.2.2.4); a 2xx from another fork is only logged.
    func absorbedByOutgoing(_ response: SIPMessage) -> Bool {
        guard let status = response.statusCode, (200..<300).contains(status), (try? response.cseq().method) == .invite,
              let callID = try? response.callID(), let call = outgoing[callID]
        else { return false }
        guard let dialog = call.dialog, let ack = call.ack, (try? response.to().tag) == dialog.id.remoteTag else {
            logger.info("SIP call: a 2xx from another fork ignored", metadata: ["call": "\(callID)"])
            return true
        }
        _ = send(ack, over: dialogDestination(dialog))
        return true
    }

    private func inviteFailed(_ key: TransactionKey, status: Int, reason: String) {
        guard let call = outgoing.values.first(where: { $0.inviteKey == key && $0.phase != .confirmed }) else { return }
        finish(call, status: status, reason: reason)
    }

    /// A final non-2xx: `.rejected`, or nothing when it answers our CANCEL (487, §9.1).
    private func finish(_ call: SIPOutgoingCall, status: Int, reason: String) {
        outgoing[call.callID] = nil
        if call.cancelled {
            logger.notice("SIP call cancelled", metadata: ["call": "\(call.callID)", "status": "\(status)"])
            return
        }
        logger.notice("SIP call rejected", metadata: ["call": "\(call.callID)", "status": "\(status)", "reason": "\(reason)"])
        agent.onCall(.rejected(callID: call.callID, status: status, reason: reason))
    }
}
