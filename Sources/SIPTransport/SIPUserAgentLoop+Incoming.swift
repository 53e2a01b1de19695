import Glibc
import SIPCore

/// Messages from the sockets: responses to our client transactions, requests answered by server transactions.
/// INVITEs, CANCELs, ACKs and in-dialog requests of calls go on to SIPUserAgentLoop+Calls; OPTIONS gets 200.
extension SIPUserAgentLoop {
    func readDatagrams(_ socket: SIPDatagramSocket) {
        // ICMP unreachable for the registrar: its transactions fail now, not at timer F (RFC 3261 §18.4, §17.1.4).
        while let unreachable = socket.takeUnreachableDestination() {
            callerUnreachable(unreachable)
            guard let registrar, unreachable.sameEndpoint(as: registrar) else { continue }
            logger.debug("SIP: ICMP unreachable from the registrar", metadata: ["registrar": "\(registrar)"])
            for key in clients.keys { clientEvent(key, .transportError) }
            for key in inviteClients.keys { inviteClientEvent(key, .transportError) }
        }
        // A bounded batch per wake-up: a flood cannot starve the timers.
        for _ in 0..<64 {
            let received: ([UInt8], SIPSocketAddress)?
            do throws(SIPTransportError) {
                received = try socket.receive()
            } catch {
                logger.debug("SIP receive failed", metadata: ["error": "\(error)"])
                return
            }
            guard case let (bytes, source)? = received else { return }
            // A bare CRLF (RFC 5626 keepalive) or whitespace is not a message.
            if bytes.allSatisfy({ $0 == 0x0D || $0 == 0x0A || $0 == 0x20 }) { continue }
            do throws(SIPError) {
                let message = try SIPMessage(datagram: bytes)
                receive(message, route: .udp(source))
            } catch {
                logger.debug("SIP: dropped an unparsable datagram", metadata: ["from": "\(source)", "error": "\(error)"])
            }
        }
    }

    func readStream(_ connection: SIPStreamConnection) {
        do throws(SIPTransportError) {
            for message in try connection.receive() { receive(message, route: .stream) }
        } catch {
            logger.warning("SIP connection to the registrar lost", metadata: ["error": "\(error)"])
            stream = nil
            for (key, entry) in clients where entry.purpose == .register { clientEvent(key, .transportError) }
            if let registration, case .registered = registration.status { perform(registrationEvent: .transportFailed) }
        }
    }

    func receive(_ message: SIPMessage, route: ReplyRoute) {
        guard message.isRequest else {
            guard let key = try? TransactionKey(clientResponse: message) else { return }
            if clients[key] != nil {
                clientEvent(key, .received(message))
            } else if inviteClients[key] != nil {
                inviteClientEvent(key, .received(message))
            } else {
                _ = absorbedByOutgoing(message)
            }
            return
        }
        var request = message
        // §18.2.1: received/rport name where the request came from (over TCP too, for logs and proxies).
        if let source = sourceAddress(of: route) { request.stampSource(host: source.host, port: source.port) }
        do throws(SIPError) {
            try request.validateRequest()
        } catch {
            // §8.2, §21.4.1: refused statelessly with what was wrong; an ACK is never answered.
            logger.debug("SIP: refused a malformed request", metadata: ["error": "\(error)"])
            if request.method != .ack, !stopping { _ = send(ResponseBuilder.refusal(of: request, for: error, toTag: token(10)), over: route) }
            return
        }
        guard let key = try? TransactionKey(serverRequest: request) else {
            logger.debug("SIP: dropped a request without an RFC 3261 branch")
            return
        }
        if servers[key] != nil {
            serverEvent(key, .received(request))
            return
        }
        // The ACK for a 2xx, or an INVITE retransmitted after its 2xx ended the transaction (§13.3.1.4).
        if absorbedByCall(request, key: key) { return }
        // An ACK for a transaction or dialog we no longer know.
        if request.method == .ack || stopping { return }
        if request.method == .invite {
            var transaction = InviteServerTransaction(request: request, reliable: isReliable(route), timers: settings.callTimers)
            let actions = transaction.start()
            servers[key] = (.invite(transaction), route)
            performServer(key, actions)
        } else {
            let transaction = NonInviteServerTransaction(request: request, reliable: isReliable(route))
            servers[key] = (.nonInvite(transaction), route)
            performServer(key, transaction.start())
        }
    }

    private func isReliable(_ route: ReplyRoute) -> Bool {
        if case .udp = route { return false }
        return true
    }

    /// The peer of a UDP request or of an accepted connection; nil for the registrar connection.
    func sourceAddress(of route: ReplyRoute) -> SIPSocketAddress? {
        switch route {
        case .udp(let source): source
        case .inbound(let id): inbound[id]?.remote
        case .stream: nil
        }
    }

    /// The TU's answer: a CANCEL of a pending INVITE, a request in a call's dialog, a new call, UASPolicy's
    /// refusals and OPTIONS; 481 for BYE/CANCEL/in-dialog requests that match nothing (§12.2.2, §9.2).
    func answer(_ request: SIPMessage, key: TransactionKey) {
        if request.method == .cancel, cancelCall(request, cancelKey: key) { return }
        if let id = try? DialogID(receivedRequest: request), calls[id.callID]?.dialog.id == id {
            answerInDialog(request, key: key, callID: id.callID)
            return
        }
        if answeredInOutgoingDialog(request, key: key) { return }
        let tag = token(10)
        let policy = UASPolicy(allowedMethods: Self.allowedMethods)
        let refusal = policy.response(to: request, toTag: tag)
        if refusal == nil, request.method == .invite, (try? request.to().tag) == nil {
            newCall(request, key: key, toTag: tag)
            return
        }
        let response = refusal
            ?? ResponseBuilder.response(to: request, status: 481, reason: "Call/Transaction Does Not Exist", toTag: tag)
        if request.method != .options {
            logger.info("SIP \(request.method?.rawValue ?? "?") answered \(response.statusCode ?? 0)")
        }
        serverEvent(key, .respond(response))
    }

    static let allowedMethods: [SIPMethod] = [.invite, .ack, .bye, .cancel, .options]
}
