import Logging
import SIPCore

/// The registration (RFC 3261 §10.2, SIPCore's `RegistrationClient`) with the loop's backoff between failures.
extension SIPUserAgentLoop {
    /// Resolves the registrar and builds the client; a name that does not resolve is retried with backoff.
    func prepareRegistration() {
        do throws(SIPTransportError) {
            let address = try SIPSocketAddress.resolve(host: settings.registrarHost, port: settings.registrarPort, datagram: !reliable)
            let local = try agent.localAddressToward(address)
            registrar = address
            let port = contactPort
            let registrarURI = SIPURI(host: settings.registrarHost,
                                      port: settings.registrarPort == 5060 ? nil : UInt16(settings.registrarPort))
            let config = RegistrationConfig(
                registrar: registrarURI,
                addressOfRecord: SIPURI(user: settings.user, host: settings.registrarHost),
                contact: contactURI(host: local.uriHost),
                credentials: settings.password.map { DigestCredentials(username: settings.authUser, password: $0) },
                requestedExpires: UInt32(clamping: settings.registerExpiry.components.seconds),
                transport: settings.transport.rawValue, localHost: local.uriHost, localPort: port,
                callID: token(24) + "@" + local.uriHost, fromTag: token(10), displayName: settings.displayName)
            registration = RegistrationClient(config: config)
            logger.info("SIP registering", metadata: [
                "aor": "\(config.addressOfRecord)", "registrar": "\(address)", "transport": "\(settings.transport.rawValue)",
                "contact": "\(config.contact)",
            ])
            perform(registrationEvent: .start)
        } catch {
            report(.unreachable("\(error)"))
            logger.warning("SIP registrar cannot be resolved; retrying", metadata: ["error": "\(error)"])
            deadlines.start(.refresh, at: now() + backoff.nextDelay(refused: false, jitter: Double.random(in: 0...1)))
        }
    }

    func perform(registrationEvent event: RegistrationEvent) {
        guard var client = registration else { return }
        let actions = client.handle(event, fresh: FreshTokens(branch: token(), cnonce: token()))
        registration = client
        for action in actions {
            switch action {
            case .send(let request):
                startClient(request, purpose: .register)
            case .startRefreshTimer(let after):
                var delay = after
                if case .failed(let failure) = registration?.status {
                    delay = backoff.nextDelay(refused: Self.isRefusal(failure), jitter: Double.random(in: 0...1))
                }
                deadlines.start(.refresh, at: now() + delay)
            case .cancelRefreshTimer:
                deadlines.cancel(.refresh)
            case .statusChanged(let status):
                statusChanged(status)
            case .learnedPublicAddress(let host, let port):
                logger.info("SIP registrar sees us at \(host):\(port.map(String.init) ?? "?")")
            }
        }
        // After the response is handled (a 401 is answered first): a 2xx that saw us elsewhere is re-registered.
        if case .response = event, case .registered = registration?.status { rewriteContactIfNeeded() }
    }

    private func statusChanged(_ status: RegistrationStatus) {
        switch status {
        case .unregistered, .registering:
            deadlines.cancel(.keepAlive)
            if !stopping { report(.registering) }
        case .registered(let expires):
            backoff.reset()
            deadlines.start(.keepAlive, at: now() + settings.keepAlive)
            report(.registered(expires: expires))
        case .failed(let failure):
            deadlines.cancel(.keepAlive)
            report(Self.state(for: failure))
        }
    }

    /// Logs each change once: a registrar that stays down is one warning, a wrong password one error, not one
    /// per retry (the retries in between stay reported as that failure).
    func report(_ state: SIPRegistrationState) {
        // A retry after a failure is not news: the board keeps the failure until the registrar answers.
        if state == .registering, lastFailure != nil {
            logger.debug("SIP retrying the registration")
            return
        }
        guard state != reported else { return }
        let previous = reported
        reported = state
        agent.onState(state)
        if state == lastFailure {
            logger.debug("SIP \(state)")
            return
        }
        if case .registered = state { lastFailure = nil } else if state != .registering { lastFailure = state }
        switch state {
        case .registered(let expires):
            logger.notice("SIP registered", metadata: ["aor": "sip:\(settings.user)@\(settings.registrarHost)", "expires": "\(expires)"])
        case .registering:
            logger.info("SIP registering")
        case .authFailed(let why):
            logger.error("SIP registration failed: the registrar refused our credentials (check sip.auth_user and the password); retrying with backoff",
                         metadata: ["reason": "\(why)", "auth_user": "\(settings.authUser)"])
        case .unreachable(let why):
            if case .unreachable = previous { return }
            logger.warning("SIP registrar unreachable; retrying with backoff", metadata: ["reason": "\(why)"])
        case .refused(let why):
            logger.error("SIP registration refused; retrying with backoff", metadata: ["reason": "\(why)"])
        }
    }

    static func isRefusal(_ failure: RegistrationFailure) -> Bool {
        switch failure {
        case .timedOut, .transportFailed: false
        default: true
        }
    }

    static func state(for failure: RegistrationFailure) -> SIPRegistrationState {
        switch failure {
        case .wrongCredentials: .authFailed("wrong user or password (challenged again)")
        case .noCredentials: .authFailed("the registrar asks for a password and none is configured")
        case .unsupportedChallenge: .authFailed("a challenge this agent cannot answer (algorithm or qop)")
        case .rejected(let status, let reason) where status == 403: .authFailed("\(status) \(reason)")
        case .rejected(let status, let reason): .refused("\(status) \(reason)")
        case .intervalTooBrief: .refused("423 Interval Too Brief")
        case .timedOut: .unreachable("no answer")
        case .transportFailed: .unreachable("transport failed (port unreachable or connection refused)")
        }
    }
}
