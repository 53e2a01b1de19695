import Glibc
import SIPCore

/// Connections phones and proxies open to the device when the transport is TCP (RFC 3261 §18.2): accepted on
/// the listener, bounded in number and idle time, framed like the registrar connection (§18.3). Requests on
/// them get the same handling as UDP requests; their responses go back on the same connection (§18.2.2).
extension SIPUserAgentLoop {
    /// Listens on `port` (the UDP port's number), else on any port: the Contact names the one bound.
    func openListener(family: Int32, port: Int) {
        do throws(SIPTransportError) {
            let opened: SIPStreamListener
            do throws(SIPTransportError) {
                opened = try SIPStreamListener(family: family, port: port)
            } catch {
                guard port != 0 else { throw error }
                opened = try SIPStreamListener(family: family, port: 0)
                logger.error("SIP: cannot listen on the UDP port's number over TCP; using another one",
                             metadata: ["error": "\(error)", "port": "\(opened.local.port)"])
            }
            listener = opened
            agent.boundStream(port: Int(opened.local.port))
            logger.info("SIP listening", metadata: ["tcp": "\(opened.local.port)"])
        } catch {
            logger.error("SIP: cannot listen on TCP; only the registrar connection carries requests", metadata: ["error": "\(error)"])
        }
    }

    /// The port our Contact and Via name: the listener's over TCP, the UDP socket's otherwise.
    var contactPort: UInt16 {
        if reliable, let listener { return listener.local.port }
        return udp?.local.port ?? 0
    }

    /// `sip:user@host:port`, with `;transport=tcp` over TCP (§19.1.1: without it a peer would use UDP).
    func contactURI(host: String) -> SIPURI {
        SIPURI(user: settings.user, host: host, port: contactPort,
               parameters: reliable ? [SIPParameter("transport", "tcp")] : [])
    }

    /// Takes every waiting connection; beyond `maxInboundConnections` a new one is closed at once (counted),
    /// so a flood of connections costs a descriptor for a moment, never memory.
    func acceptConnections(_ listener: SIPStreamListener) {
        while true {
            let accepted: (descriptor: Int32, remote: SIPSocketAddress)?
            do throws(SIPTransportError) {
                accepted = try listener.accept()
            } catch {
                // EMFILE and the like: poll reports the listener again, so wait for the next round.
                logger.warning("SIP: cannot accept a TCP connection", metadata: ["error": "\(error)"])
                return
            }
            guard let (descriptor, remote) = accepted else { return }
            guard inbound.count < settings.maxInboundConnections else {
                close(descriptor)
                agent.count { $0.refused += 1 }
                logger.warning("SIP: TCP connection refused, \(inbound.count) open already", metadata: ["from": "\(remote)"])
                continue
            }
            do throws(SIPTransportError) {
                let connection = try SIPStreamConnection(accepted: descriptor, remote: remote, at: now())
                nextInboundID += 1
                inbound[nextInboundID] = connection
                agent.count { $0.accepted += 1 }
                logger.debug("SIP: TCP connection accepted", metadata: ["from": "\(remote)"])
            } catch {
                logger.warning("SIP: accepted TCP connection unusable", metadata: ["error": "\(error)"])
            }
        }
    }

    func readInbound(_ id: UInt64) {
        guard let connection = inbound[id] else { return }
        connection.lastActivity = now()
        let messages: [SIPMessage]
        do throws(SIPTransportError) {
            messages = try connection.receive()
        } catch {
            if case .closedByPeer = error {
                closeInbound(id)
            } else {
                // §18.3: a stream that cannot be framed cannot be re-synchronized.
                logger.warning("SIP: TCP connection closed", metadata: ["from": "\(connection.remote)", "error": "\(error)"])
                agent.count { $0.unframeable += 1 }
                closeInbound(id)
            }
            return
        }
        for message in messages { receive(message, route: .inbound(id)) }
    }

    func closeInbound(_ id: UInt64) {
        inbound[id] = nil
    }

    /// Closes accepted connections quiet for `inboundIdleTimeout` that no call or transaction still uses (a
    /// peer that wants to talk again opens a new one, §18.2.2, §18.3).
    func closeIdleInbound() {
        let cutoff = now() - settings.inboundIdleTimeout
        for (id, connection) in inbound where connection.lastActivity < cutoff && !inboundInUse(id) {
            logger.info("SIP: idle TCP connection closed", metadata: ["from": "\(connection.remote)"])
            agent.count { $0.idle += 1 }
            closeInbound(id)
        }
    }

    private func inboundInUse(_ id: UInt64) -> Bool {
        func isThis(_ route: ReplyRoute?) -> Bool {
            if case .inbound(id)? = route { return true }
            return false
        }
        return calls.values.contains { isThis($0.route) } || servers.values.contains { isThis($0.route) }
            || clients.values.contains { isThis($0.destination) }
    }

    func sendInbound(_ message: SIPMessage, id: UInt64) -> Bool {
        guard let connection = inbound[id] else {
            logger.debug("SIP: the TCP connection of this request is closed; not sent")
            return false
        }
        do throws(SIPTransportError) {
            try connection.send(message.serialized())
            return true
        } catch {
            logger.info("SIP: TCP send failed; connection closed", metadata: ["to": "\(connection.remote)", "error": "\(error)"])
            closeInbound(id)
            return false
        }
    }
}
