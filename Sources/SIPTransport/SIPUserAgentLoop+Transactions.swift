import SIPCore

/// Client and server transactions (RFC 3261 §17) driven with the loop's sockets and deadlines.
extension SIPUserAgentLoop {
    func startClient(_ request: SIPMessage, purpose: Purpose, destination: ReplyRoute? = nil,
                     timers: SIPTimerValues = .standard) {
        guard let key = try? TransactionKey(clientRequest: request) else { return }
        let isReliable = destination.map { if case .udp = $0 { false } else { true } } ?? reliable
        let transaction = NonInviteClientTransaction(request: request, reliable: isReliable, timers: timers)
        clients[key] = (transaction, purpose, destination)
        performClient(key, transaction.start())
    }

    func clientEvent(_ key: TransactionKey, _ event: TransactionEvent) {
        guard var entry = clients[key] else { return }
        let actions = entry.transaction.handle(event)
        clients[key] = entry
        performClient(key, actions)
    }

    private func performClient(_ key: TransactionKey, _ actions: [TransactionAction]) {
        guard let (_, purpose, destination) = clients[key] else { return }
        for action in actions {
            switch action {
            case .send(let message):
                let sent = destination.map { send(message, over: $0) } ?? sendToRegistrar(message)
                if !sent {
                    clientEvent(key, .transportError)
                    return
                }
            case .startTimer(let timer, let after): deadlines.start(.client(key, timer), at: now() + after)
            case .cancelTimer(let timer): deadlines.cancel(.client(key, timer))
            case .deliver(let response):
                if purpose == .register { perform(registrationEvent: .response(response)) }
                if purpose == .bye || purpose == .cancel {
                    logger.debug("SIP \(purpose) answered \(response.statusCode ?? 0)")
                }
            case .timedOut:
                switch purpose {
                case .register: perform(registrationEvent: .timedOut)
                case .keepAlive: keepAliveFailed("no answer to OPTIONS")
                case .bye, .cancel: logger.debug("SIP \(purpose) unanswered")
                }
            case .transportFailed:
                switch purpose {
                case .register: perform(registrationEvent: .transportFailed)
                case .keepAlive: keepAliveFailed("transport failed")
                case .bye, .cancel: logger.debug("SIP \(purpose) could not be sent")
                }
            case .terminated:
                clients[key] = nil
                deadlines.cancelAll { if case .client(key, _) = $0 { true } else { false } }
            }
        }
    }

    func serverEvent(_ key: TransactionKey, _ event: TransactionEvent) {
        guard var entry = servers[key] else { return }
        let actions: [TransactionAction]
        switch entry.transaction {
        case .nonInvite(var transaction):
            actions = transaction.handle(event)
            entry.transaction = .nonInvite(transaction)
        case .invite(var transaction):
            actions = transaction.handle(event)
            entry.transaction = .invite(transaction)
        }
        servers[key] = entry
        performServer(key, actions)
    }

    func performServer(_ key: TransactionKey, _ actions: [TransactionAction]) {
        guard let route = servers[key]?.route else { return }
        for action in actions {
            switch action {
            case .send(let message):
                if !send(message, over: route) {
                    serverEvent(key, .transportError)
                    return
                }
            case .startTimer(let timer, let after): deadlines.start(.server(key, timer), at: now() + after)
            case .cancelTimer(let timer): deadlines.cancel(.server(key, timer))
            case .deliver(let request): answer(request, key: key)
            case .timedOut: break
            case .transportFailed: callTransportFailed(inviteKey: key)
            case .terminated:
                servers[key] = nil
                deadlines.cancelAll { if case .server(key, _) = $0 { true } else { false } }
            }
        }
    }

    /// Sends over the registrar's transport (connecting TCP when needed); false when it failed.
    func sendToRegistrar(_ message: SIPMessage) -> Bool {
        sendBytesToRegistrar(message.serialized())
    }

    func sendBytesToRegistrar(_ bytes: [UInt8]) -> Bool {
        guard let registrar else { return false }
        do throws(SIPTransportError) {
            if reliable {
                if stream == nil { stream = try SIPStreamConnection(to: registrar, timeout: .seconds(3)) }
                try stream?.send(bytes)
            } else {
                guard let udp else { return false }
                try udp.send(bytes, to: registrar)
            }
            return true
        } catch {
            logger.debug("SIP send failed", metadata: ["error": "\(error)"])
            stream = nil
            return false
        }
    }

    func send(_ message: SIPMessage, over route: ReplyRoute) -> Bool {
        switch route {
        case .stream:
            return sendBytesToRegistrar(message.serialized())
        case .inbound(let id):
            return sendInbound(message, id: id)
        case .udp(let destination):
            do throws(SIPTransportError) {
                try udp?.send(message.serialized(), to: destination)
                return true
            } catch {
                logger.debug("SIP send failed", metadata: ["error": "\(error)"])
                return false
            }
        }
    }
}
