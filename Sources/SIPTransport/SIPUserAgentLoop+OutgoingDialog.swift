import SIPCore

/// Ending a call the device placed (CANCEL before the answer, RFC 3261 §9.1; BYE after it, §15.1.1) and the
/// callee's requests in its dialog (BYE ends it, §15.1.2).
extension SIPUserAgentLoop {
    /// `hangup` of an outgoing call: before any provisional response the CANCEL waits for one (§9.1); after
    /// one, CANCEL (the 487 then ends the call quietly); after the 2xx, BYE.
    func hangupOutgoing(_ callID: String) {
        guard var call = outgoing[callID] else { return }
        switch call.phase {
        case .calling:
            call.cancelPending = true
            call.cancelled = true
            outgoing[callID] = call
        case .proceeding:
            call.cancelled = true
            outgoing[callID] = call
            sendCancel(call)
        case .confirmed:
            outgoing[callID] = nil
            logger.notice("SIP call hung up", metadata: ["call": "\(callID)"])
            sendOutgoingBye(call)
        }
    }

    /// `stop()`: CANCEL or BYE for each outgoing call, sent once; calls without a provisional response yet
    /// are left to the callee's timeout.
    func endOutgoingForStop() {
        for call in outgoing.values {
            switch call.phase {
            case .calling: break
            case .proceeding: sendCancel(call)
            case .confirmed: sendOutgoingBye(call)
            }
        }
        outgoing = [:]
    }

    /// CANCEL in its own non-INVITE client transaction, to where the INVITE went (§9.1).
    func sendCancel(_ call: SIPOutgoingCall) {
        logger.notice("SIP call cancelled by us", metadata: ["call": "\(call.callID)"])
        startClient(CancelBuilder.cancel(for: call.invite), purpose: .cancel, timers: callTimers)
    }

    private func sendOutgoingBye(_ call: SIPOutgoingCall) {
        guard var dialog = call.dialog else { return }
        let bye = dialog.makeRequest(.bye, via: dialogVia(call))
        startClient(bye, purpose: .bye, destination: dialogDestination(dialog), timers: callTimers)
    }

    /// A Via with a new branch for a request in the dialog (ACK, BYE).
    func dialogVia(_ call: SIPOutgoingCall) -> Via {
        Via(transport: settings.transport.rawValue, host: call.contact.host, port: call.contact.port,
            parameters: [SIPParameter("branch", Via.magicCookie + token()), SIPParameter("rport")])
    }

    /// The first hop of a request in the dialog: the first Route, else the remote target (§12.2.1.1); the
    /// registrar when that does not resolve, and over TCP the registrar connection.
    func dialogDestination(_ dialog: Dialog) -> ReplyRoute {
        if reliable { return .stream }
        let hop = dialog.routeSet.first?.uri ?? dialog.remoteTarget
        if let address = try? SIPSocketAddress.resolve(host: hop.host, port: Int(hop.port ?? 5060), datagram: true) {
            return .udp(address)
        }
        return registrar.map { .udp($0) } ?? .stream
    }

    /// True when `request` belongs to an outgoing call's dialog and was answered: BYE → 200 and `.ended(bye)`,
    /// a re-INVITE 488 (no session changes), a lower CSeq 500 (§12.2.2), others UASPolicy's or 200.
    func answeredInOutgoingDialog(_ request: SIPMessage, key: TransactionKey) -> Bool {
        guard let id = try? DialogID(receivedRequest: request), var call = outgoing[id.callID],
              var dialog = call.dialog, dialog.id == id
        else { return false }
        let tag = id.localTag
        let check: Dialog.RequestCheck
        do throws(SIPError) {
            check = try dialog.receive(request)
        } catch {
            serverEvent(key, .respond(ResponseBuilder.refusal(of: request, for: error, toTag: tag)))
            return true
        }
        call.dialog = dialog
        outgoing[id.callID] = call
        let response: SIPMessage
        if check == .outOfOrder {
            response = ResponseBuilder.response(to: request, status: 500, reason: "CSeq Out of Order", toTag: tag)
        } else if let refusal = UASPolicy(allowedMethods: Self.allowedMethods).response(to: request, toTag: tag) {
            response = refusal
        } else if request.method == .invite {
            response = ResponseBuilder.response(to: request, status: 488, reason: "Not Acceptable Here", toTag: tag)
        } else {
            response = ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: tag)
        }
        serverEvent(key, .respond(response))
        if request.method == .bye, response.statusCode == 200 {
            outgoing[id.callID] = nil
            logger.notice("SIP call ended", metadata: ["call": "\(id.callID)", "reason": "bye"])
            agent.onCall(.ended(callID: id.callID, reason: .bye))
        }
        return true
    }
}
