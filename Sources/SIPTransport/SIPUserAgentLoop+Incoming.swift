import Glibc
import SIPCore

/// Messages from the sockets: responses to our client transactions, requests answered by server transactions.
/// Calls come later (issue #18 item 4): an INVITE is refused with 480 for now; OPTIONS gets 200.
extension SIPUserAgentLoop {
    func readDatagrams(_ socket: SIPDatagramSocket) {
        // ICMP unreachable for the registrar: its transactions fail now, not at timer F (RFC 3261 §18.4, §17.1.4).
        while let unreachable = socket.takeUnreachableDestination() {
            guard let registrar, unreachable.sameEndpoint(as: registrar) else { continue }
            logger.debug("SIP: ICMP unreachable from the registrar", metadata: ["registrar": "\(registrar)"])
            for key in clients.keys { clientEvent(key, .transportError) }
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

    private func receive(_ message: SIPMessage, route: ReplyRoute) {
        guard message.isRequest else {
            if let key = try? TransactionKey(clientResponse: message) { clientEvent(key, .received(message)) }
            return
        }
        var request = message
        if case .udp(let source) = route { request.stampSource(host: source.host, port: source.port) }
        guard let key = try? TransactionKey(serverRequest: request) else {
            logger.debug("SIP: dropped a request without an RFC 3261 branch")
            return
        }
        if servers[key] != nil {
            serverEvent(key, .received(request))
            return
        }
        // An ACK for a transaction we no longer know (2xx ACKs belong to dialogs, which come with calls).
        if request.method == .ack || stopping { return }
        if request.method == .invite {
            var transaction = InviteServerTransaction(request: request, reliable: isReliable(route))
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
        if case .stream = route { return true }
        return false
    }

    /// The TU's answer: UASPolicy's refusals and OPTIONS; 480 for an INVITE and 481 for BYE/CANCEL until calls exist.
    func answer(_ request: SIPMessage, key: TransactionKey) {
        let tag = token(10)
        let policy = UASPolicy(allowedMethods: [.invite, .ack, .bye, .cancel, .options])
        let response = policy.response(to: request, toTag: tag) ?? {
            if request.method == .invite {
                return ResponseBuilder.response(to: request, status: 480, reason: "Temporarily Unavailable", toTag: tag)
            }
            return ResponseBuilder.response(to: request, status: 481, reason: "Call/Transaction Does Not Exist", toTag: tag)
        }()
        if request.method != .options {
            logger.info("SIP \(request.method?.rawValue ?? "?") answered \(response.statusCode ?? 0)")
        }
        serverEvent(key, .respond(response))
    }
}
