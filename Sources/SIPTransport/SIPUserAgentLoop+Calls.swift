import SIPCore

/// Requests of incoming calls (RFC 3261 §13.3, §12.2.2, §9.2, §15.1.2): a new INVITE becomes a `SIPCall` and
/// `.invited`; ACK, CANCEL, BYE, re-INVITE and other requests in its dialog are answered here.
extension SIPUserAgentLoop {
    /// An INVITE outside any dialog, after its transaction sent 100 Trying.
    func newCall(_ request: SIPMessage, key: TransactionKey, toTag: String) {
        guard let route = servers[key]?.route else { return }
        do throws(SIPError) {
            let callID = try request.callID()
            // The same Call-ID on another branch: a request that forked back to us (§8.2.2.2).
            if calls[callID] != nil {
                serverEvent(key, .respond(ResponseBuilder.response(to: request, status: 482, reason: "Loop Detected", toTag: toTag)))
                return
            }
            let dialog = try Dialog(uasRequest: request, localTag: toTag)
            let from = try request.from()
            calls[callID] = SIPCall(invite: request, inviteKey: key, route: route, contact: localContact(for: route), dialog: dialog)
            let invite = SIPIncomingInvite(
                callID: callID, fromURI: from.uri.serialized, fromUser: from.uri.user,
                displayName: from.displayName.map(Self.unquoted), offer: String(decoding: request.body, as: UTF8.self),
                sourceHost: sourceHost(of: route))
            logger.notice("SIP call invited", metadata: ["call": "\(callID)", "from": "\(invite.fromURI)", "source": "\(invite.sourceHost)"])
            agent.onCall(.invited(invite))
        } catch {
            // No Contact or From tag: nothing a dialog can be made of (§8.1.1.8).
            serverEvent(key, .respond(ResponseBuilder.refusal(of: request, for: error, toTag: toTag)))
        }
    }

    /// §9.2: a CANCEL of an INVITE we have not answered yet gets 200, the INVITE 487. False when the CANCEL
    /// matches no pending INVITE (then answered 481).
    func cancelCall(_ cancel: SIPMessage, cancelKey: TransactionKey) -> Bool {
        guard let target = try? TransactionKey(cancelledBy: cancel), servers[target] != nil,
              let call = calls.values.first(where: { $0.inviteKey == target && $0.phase == .offered })
        else { return false }
        serverEvent(cancelKey, .respond(ResponseBuilder.response(to: cancel, status: 200, reason: "OK", toTag: call.localTag)))
        removeCall(call.callID)
        serverEvent(target, .respond(ResponseBuilder.response(to: call.invite, status: 487, reason: "Request Terminated", toTag: call.localTag)))
        logger.notice("SIP call cancelled by the caller", metadata: ["call": "\(call.callID)"])
        agent.onCall(.cancelled(callID: call.callID))
        return true
    }

    /// A request in a call's dialog (§12.2.2): CSeq order, then BYE ends the call, a re-INVITE is a session
    /// refresh answered with the SDP we answered before (no hold), the rest is UASPolicy's (OPTIONS 200).
    func answerInDialog(_ request: SIPMessage, key: TransactionKey, callID: String) {
        guard var call = calls[callID] else { return }
        let check: Dialog.RequestCheck
        do throws(SIPError) {
            check = try call.dialog.receive(request)
        } catch {
            serverEvent(key, .respond(ResponseBuilder.refusal(of: request, for: error, toTag: call.localTag)))
            return
        }
        calls[callID] = call
        if check == .outOfOrder {
            serverEvent(key, .respond(ResponseBuilder.response(to: request, status: 500, reason: "CSeq Out of Order", toTag: call.localTag)))
            return
        }
        if let refusal = UASPolicy(allowedMethods: Self.allowedMethods).response(to: request, toTag: call.localTag) {
            serverEvent(key, .respond(refusal))
            return
        }
        switch request.method {
        case .bye?:
            serverEvent(key, .respond(ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: call.localTag)))
            // A BYE in the early dialog (§15): the INVITE still needs its final answer.
            if call.phase == .offered {
                serverEvent(call.inviteKey, .respond(ResponseBuilder.response(
                    to: call.invite, status: 487, reason: "Request Terminated", toTag: call.localTag)))
            }
            endCall(callID, reason: .bye)
        case .invite? where call.phase == .offered:
            // §14.2: a second INVITE before the final answer to the first.
            serverEvent(key, .respond(ResponseBuilder.response(to: request, status: 500, reason: "Server Internal Error", toTag: call.localTag,
                                                               extraHeaders: [SIPHeader("Retry-After", "1")])))
        case .invite?:
            logger.info("SIP call refreshed (re-INVITE answered with the same SDP)", metadata: ["call": "\(callID)"])
            sendOK(okResponse(to: request, call: call), callID: callID, key: key)
        default:
            serverEvent(key, .respond(ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: call.localTag)))
        }
    }

    /// Before any transaction: the ACK for a 2xx (its own branch, §13.2.2.4) and an INVITE retransmitted after
    /// its 2xx ended the server transaction (the 2xx goes again, §13.3.1.4).
    func absorbedByCall(_ request: SIPMessage, key: TransactionKey) -> Bool {
        guard let callID = try? request.callID(), let call = calls[callID] else { return false }
        if request.method == .ack {
            guard let id = try? DialogID(receivedRequest: request), id == call.dialog.id else { return false }
            if call.awaitingAck { ackReceived(callID) }
            return true
        }
        guard request.method == .invite, call.okKey == key else { return false }
        if let ok = call.okResponse { _ = send(ok, over: call.route) }
        return true
    }

    /// The INVITE's transaction could not send: the call is over for the coordinator.
    func callTransportFailed(inviteKey: TransactionKey) {
        guard let call = calls.values.first(where: { $0.inviteKey == inviteKey && $0.phase == .offered }) else { return }
        endCall(call.callID, reason: .transport("cannot send to the caller"))
    }

    /// An ICMP port or host unreachable for a caller's address (RFC 3261 §18.4): the caller is gone, its calls
    /// end now instead of after timer H or never.
    func callerUnreachable(_ address: SIPSocketAddress) {
        for call in calls.values {
            guard case .udp(let source) = call.route, source.sameEndpoint(as: address) else { continue }
            endCall(call.callID, reason: .transport("the caller is unreachable (ICMP)"))
        }
    }

    /// Removes the call, logs why and tells the coordinator.
    func endCall(_ callID: String, reason: SIPCallEndReason) {
        guard calls[callID] != nil else { return }
        removeCall(callID)
        logger.notice("SIP call ended", metadata: ["call": "\(callID)", "reason": "\(reason)"])
        agent.onCall(.ended(callID: callID, reason: reason))
    }

    func removeCall(_ callID: String) {
        calls[callID] = nil
        deadlines.cancel(.okRetransmit(callID: callID))
        deadlines.cancel(.okTimeout(callID: callID))
    }

    private func sourceHost(of route: ReplyRoute) -> String {
        sourceAddress(of: route)?.host ?? registrar?.host ?? ""
    }

    /// A quoted display name without its quotes and backslash escapes (RFC 3261 §25.1 quoted-pair).
    static func unquoted(_ name: String) -> String {
        guard name.count >= 2, name.first == "\"", name.last == "\"" else { return name }
        var result = ""
        var escaped = false
        for character in name.dropFirst().dropLast() {
            if !escaped, character == "\\" {
                escaped = true
                continue
            }
            escaped = false
            result.append(character)
        }
        return result
    }
}
