import SIPCore

/// Following the network (issue #18): a new local address toward the registrar, or a registrar that sees us
/// behind a NAT, is registered at once instead of at the next refresh (which may be an hour away).
extension SIPUserAgentLoop {
    /// The host's addresses changed (`SIPUserAgent.addressesChanged`). The UDP socket is bound to the wildcard
    /// address, so it survives any change and is kept; what goes stale is the Contact and the Via sent-by (the
    /// old address) and a TCP connection bound to the old address.
    func addressesChanged() {
        guard !stopping else { return }
        guard let registrar, let registration else {
            // The registrar did not resolve yet (no network when the agent started): try now, not after the backoff.
            deadlines.cancel(.refresh)
            prepareRegistration()
            return
        }
        let local: SIPSocketAddress
        do throws(SIPTransportError) {
            local = try agent.localAddressToward(registrar)
        } catch {
            // No route right now: the keepalive and the retries notice a registrar that stays out of reach.
            logger.info("SIP: no route to the registrar after an address change", metadata: ["error": "\(error)"])
            return
        }
        guard local.uriHost != registration.config.localHost else {
            logger.debug("SIP: addresses changed; the registrar is still reached from \(local.uriHost)")
            return
        }
        logger.notice("SIP: the address toward the registrar changed; registering the new contact at once",
                      metadata: ["from": "\(registration.config.localHost)", "to": "\(local.uriHost)"])
        // The next send connects again, from the new address (RFC 3261 §18.1.1: a new connection is fine).
        stream = nil
        abandonRegistrarTransactions()
        contactRewrite.reset()
        perform(registrationEvent: .rebind(contact: contactURI(host: local.uriHost),
                                           localHost: local.uriHost, localPort: contactPort))
    }

    /// A REGISTER or keepalive still waiting went out from the old address: its answer (or its timer F, seconds
    /// after the new REGISTER succeeded) would only mark the fresh binding failed.
    private func abandonRegistrarTransactions() {
        for (key, entry) in clients where entry.purpose == .register || entry.purpose == .keepAlive {
            clients[key] = nil
            deadlines.cancelAll { if case .client(key, _) = $0 { true } else { false } }
        }
    }

    /// After a 2xx: the registrar saw us at another address than our Contact (Via `received`/`rport`, RFC 3581
    /// §4), so requests to the private Contact would never arrive; register the address it saw (RFC 3261
    /// §10.2: the Contact is where we can be reached). Once per distinct address (`ContactRewrite`).
    func rewriteContactIfNeeded() {
        guard !stopping, let registration, let observed = registration.publicAddress else { return }
        let current = registration.config.contact
        guard let contact = contactRewrite.decide(contact: current, observedHost: observed.host, observedPort: observed.port)
        else { return }
        logger.notice("SIP registrar sees us as \(contact.host):\(contact.port.map(String.init) ?? "5060"); registering that contact",
                      metadata: ["was": "\(current)"])
        perform(registrationEvent: .rebind(contact: contact, localHost: registration.config.localHost,
                                           localPort: registration.config.localPort))
    }
}
