/// A sans-IO registration client (RFC 3261 §10.2): REGISTER, answer 401/407 challenges (once per nonce, again
/// when stale), follow 423 Min-Expires, refresh before the binding lapses (`RefreshSchedule`), learn the public
/// address from the response's Via, and report a status for the UI.
public struct RegistrationClient: Sendable {
    /// The Contact, Via host and port change with `.rebind`; the rest stays for the client's life.
    public private(set) var config: RegistrationConfig
    public private(set) var status: RegistrationStatus = .unregistered
    public private(set) var publicAddress: (host: String, port: UInt16?)?
    var requestedExpires: UInt32
    var sequence: UInt32 = 0
    var digest: DigestClient?
    /// The challenge to answer on every REGISTER until the registrar sends another.
    var challenge: (DigestChallenge, proxy: Bool)?
    /// The nonce our last REGISTER answered; a fresh, non-stale challenge with it means the answer was wrong.
    var answeredNonce: String?
    /// Challenges since the last success; a registrar that sends a new nonce each time never repeats one.
    var challengesInARow = 0
    var stopping = false
    /// Contacts given up by `.rebind`, sent with `;expires=0` until a 2xx confirms the new binding.
    var retired: [SIPURI] = []

    /// More consecutive non-stale challenges than this mean the credentials are refused.
    static let maxChallengesInARow = 3

    public init(config: RegistrationConfig) {
        self.config = config
        requestedExpires = config.requestedExpires
        digest = config.credentials.map { DigestClient(credentials: $0) }
    }

    public mutating func handle(_ event: RegistrationEvent, fresh: FreshTokens) -> [RegistrationAction] {
        switch event {
        case .start, .refreshTimerFired:
            stopping = false
            return changeStatus(to: status == .unregistered || isFailed ? .registering : status)
                + [sendRegister(fresh: fresh)]
        case .stop:
            stopping = true
            return [.cancelRefreshTimer, sendRegister(fresh: fresh)]
        case .response(let response):
            return receive(response, fresh: fresh)
        case .timedOut:
            return fail(.timedOut)
        case .transportFailed:
            return fail(.transportFailed)
        case .rebind(let contact, let localHost, let localPort):
            return rebind(contact: contact, localHost: localHost, localPort: localPort, fresh: fresh)
        }
    }

    /// The same Call-ID and a higher CSeq (§10.2.4): the registrar replaces nothing, it adds the new binding
    /// and drops the retired one. What the registrar saw of the old address no longer says anything.
    private mutating func rebind(contact: SIPURI, localHost: String, localPort: UInt16?, fresh: FreshTokens) -> [RegistrationAction] {
        guard !stopping else { return [] }
        if contact != config.contact, !retired.contains(config.contact) { retired.append(config.contact) }
        retired.removeAll { $0 == contact }
        config.contact = contact
        if localHost != config.localHost || localPort != config.localPort { publicAddress = nil }
        config.localHost = localHost
        config.localPort = localPort
        return [sendRegister(fresh: fresh)]
    }

    private var isFailed: Bool {
        if case .failed = status { return true }
        return false
    }

    private mutating func receive(_ response: SIPMessage, fresh: FreshTokens) -> [RegistrationAction] {
        guard let status = response.statusCode, status >= 200 else { return [] }
        var actions = learnAddress(from: response)
        switch status {
        case 200..<300:
            retired = []
            answeredNonce = nil
            challengesInARow = 0
            if stopping { return actions + changeStatus(to: .unregistered) }
            let granted = grantedExpires(in: response)
            actions += changeStatus(to: .registered(expires: granted))
            actions.append(.startRefreshTimer(after: RefreshSchedule.delay(forGrantedSeconds: granted)))
            return actions
        case 401, 407:
            return actions + answerChallenge(in: response, fresh: fresh)
        case 423:
            // Min-Expires (§10.3 step 7): ask again with at least that interval, once per value.
            guard let minimum = response.values(SIPHeaderName.minExpires).first.flatMap({ UInt32($0) }),
                minimum > requestedExpires
            else { return actions + fail(.intervalTooBrief) }
            requestedExpires = minimum
            return actions + [sendRegister(fresh: fresh)]
        default:
            guard case .response(_, let reason) = response.startLine else { return actions }
            return actions + fail(.rejected(status: status, reason: reason))
        }
    }

    private mutating func answerChallenge(in response: SIPMessage, fresh: FreshTokens) -> [RegistrationAction] {
        guard digest != nil else { return fail(.noCredentials) }
        guard let preferred = DigestChallenge.preferred(in: response) else { return fail(.unsupportedChallenge) }
        let offered = preferred.0
        // One answer per nonce: the same nonce again (not stale) means the credentials are wrong (§22.2).
        if offered.nonce == answeredNonce, !offered.stale { return fail(.wrongCredentials) }
        if !offered.stale { challengesInARow += 1 }
        guard challengesInARow <= Self.maxChallengesInARow else { return fail(.wrongCredentials) }
        guard offered.qopOptions.isEmpty || offered.qopOptions.contains("auth") else {
            return fail(.unsupportedChallenge)
        }
        challenge = preferred
        return [sendRegister(fresh: fresh)]
    }

    /// The expiry of our binding: its Contact's `expires`, else the Expires header, else what we asked (§10.2.4).
    private func grantedExpires(in response: SIPMessage) -> UInt32 {
        let contacts = (try? response.contacts()) ?? []
        if let ours = contacts.first(where: { $0.uri.host == config.contact.host && $0.uri.user == config.contact.user }),
            let value = ours.parameters.value("expires") ?? nil, let seconds = UInt32(value)
        {
            return seconds
        }
        return (try? response.expires()) ?? requestedExpires
    }

    private mutating func learnAddress(from response: SIPMessage) -> [RegistrationAction] {
        guard let via = try? response.topVia(), let received = via.received ?? (via.rport != nil ? via.host : nil)
        else { return [] }
        let port = via.rport ?? via.port
        if let publicAddress, publicAddress.host == received, publicAddress.port == port { return [] }
        publicAddress = (received, port)
        return [.learnedPublicAddress(host: received, port: port)]
    }

    private mutating func fail(_ failure: RegistrationFailure) -> [RegistrationAction] {
        answeredNonce = nil
        challengesInARow = 0
        challenge = nil
        return changeStatus(to: .failed(failure)) + [.startRefreshTimer(after: config.retryAfterFailure)]
    }

    private mutating func changeStatus(to newStatus: RegistrationStatus) -> [RegistrationAction] {
        guard newStatus != status else { return [] }
        status = newStatus
        return [.statusChanged(newStatus)]
    }
}
