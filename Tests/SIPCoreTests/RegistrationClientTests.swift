import SIPCore
import Testing

@Suite("Registration client (RFC 3261 §10.2)")
struct RegistrationClientTests {
    let config = RegistrationConfig(
        registrar: try! SIPURI("sip:example.com"), addressOfRecord: try! SIPURI("sip:alice@example.com"),
        contact: try! SIPURI("sip:alice@192.0.2.10:5060"),
        credentials: DigestCredentials(username: "alice", password: "secret"), requestedExpires: 600,
        localHost: "192.0.2.10", localPort: 5060, callID: "reg-call", fromTag: "ft")
    let tokens = FreshTokens(branch: "b", cnonce: "cn")

    static func sent(_ actions: [RegistrationAction]) -> SIPMessage? {
        for case .send(let message) in actions { return message }
        return nil
    }

    func reply(_ status: Int, to request: SIPMessage, headers: [SIPHeader] = [], via: String? = nil) -> SIPMessage {
        var response = ResponseBuilder.response(to: request, status: status, reason: "R", toTag: "srv", extraHeaders: headers)
        if let via { response.setHeader(SIPHeaderName.via, via) }
        return response
    }

    func challenge(nonce: String, stale: Bool = false) -> SIPHeader {
        SIPHeader(SIPHeaderName.wwwAuthenticate, #"Digest realm="example.com", nonce="\#(nonce)", qop="auth", stale=\#(stale ? "TRUE" : "FALSE")"#)
    }

    @Test func registersWithDigestAndSchedulesARefresh() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        #expect(client.status == .registering)
        #expect(first.method == .register)
        #expect(first.values(SIPHeaderName.expires) == ["600"])
        #expect(first.values(SIPHeaderName.authorization).isEmpty)
        try first.validateRequest()

        let second = try #require(Self.sent(client.handle(.response(reply(401, to: first, headers: [challenge(nonce: "n1")])), fresh: tokens)))
        #expect(try second.cseq().number == 2)
        #expect(try second.callID() == "reg-call")
        let authorization = try #require(second.values(SIPHeaderName.authorization).first)
        #expect(authorization.contains(#"nonce="n1""#))
        #expect(authorization.contains("nc=00000001"))

        var ok = reply(200, to: second, headers: [SIPHeader(SIPHeaderName.contact, "<sip:alice@192.0.2.10:5060>;expires=300")],
            via: "SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKb;rport=40123;received=203.0.113.9")
        ok.addHeader(SIPHeaderName.expires, "600")
        let actions = client.handle(.response(ok), fresh: tokens)
        #expect(actions.contains(.learnedPublicAddress(host: "203.0.113.9", port: 40123)))
        #expect(actions.contains(.statusChanged(.registered(expires: 300))))
        // min(0.8 * 300, 300 - 32) = 240 s.
        #expect(actions.contains(.startRefreshTimer(after: .seconds(240))))

        // The refresh answers the same challenge pre-emptively, with the next nonce-count.
        let refresh = try #require(Self.sent(client.handle(.refreshTimerFired, fresh: tokens)))
        #expect(refresh.values(SIPHeaderName.authorization).first?.contains("nc=00000002") == true)
        #expect(client.status == .registered(expires: 300))
    }

    @Test func sameNonceAgainMeansWrongPassword() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        let second = try #require(Self.sent(client.handle(.response(reply(401, to: first, headers: [challenge(nonce: "n1")])), fresh: tokens)))
        let actions = client.handle(.response(reply(401, to: second, headers: [challenge(nonce: "n1")])), fresh: tokens)
        #expect(client.status == .failed(.wrongCredentials))
        #expect(Self.sent(actions) == nil)
        #expect(actions.contains(.startRefreshTimer(after: .seconds(60))))
    }

    @Test func staleNonceIsRetried() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        let second = try #require(Self.sent(client.handle(.response(reply(401, to: first, headers: [challenge(nonce: "n1")])), fresh: tokens)))
        let third = try #require(Self.sent(client.handle(
            .response(reply(401, to: second, headers: [challenge(nonce: "n1", stale: true)])), fresh: tokens)))
        #expect(third.values(SIPHeaderName.authorization).first?.contains("nc=00000002") == true)
        let fourth = try #require(Self.sent(client.handle(
            .response(reply(401, to: third, headers: [challenge(nonce: "n2", stale: true)])), fresh: tokens)))
        #expect(fourth.values(SIPHeaderName.authorization).first?.contains(#"nonce="n2""#) == true)
        #expect(client.status == .registering)
    }

    @Test func proxyChallengeIsAnsweredWithProxyAuthorization() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        let header = SIPHeader(SIPHeaderName.proxyAuthenticate, #"Digest realm="proxy", nonce="p1""#)
        let second = try #require(Self.sent(client.handle(.response(reply(407, to: first, headers: [header])), fresh: tokens)))
        #expect(second.values(SIPHeaderName.proxyAuthorization).count == 1)
    }

    @Test func intervalTooBriefRaisesExpires() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        let retry = try #require(Self.sent(client.handle(
            .response(reply(423, to: first, headers: [SIPHeader(SIPHeaderName.minExpires, "1800")])), fresh: tokens)))
        #expect(retry.values(SIPHeaderName.expires) == ["1800"])
        _ = client.handle(.response(reply(423, to: retry, headers: [SIPHeader(SIPHeaderName.minExpires, "1800")])), fresh: tokens)
        #expect(client.status == .failed(.intervalTooBrief))
    }

    @Test func noCredentialsTimeoutAndRejection() throws {
        var anonymous = RegistrationClient(config: RegistrationConfig(
            registrar: config.registrar, addressOfRecord: config.addressOfRecord, contact: config.contact,
            credentials: nil, localHost: "192.0.2.10", callID: "c", fromTag: "t"))
        let first = try #require(Self.sent(anonymous.handle(.start, fresh: tokens)))
        _ = anonymous.handle(.response(reply(401, to: first, headers: [challenge(nonce: "n")])), fresh: tokens)
        #expect(anonymous.status == .failed(.noCredentials))

        var client = RegistrationClient(config: config)
        _ = client.handle(.start, fresh: tokens)
        _ = client.handle(.timedOut, fresh: tokens)
        #expect(client.status == .failed(.timedOut))
        // The retry timer re-registers.
        let retry = try #require(Self.sent(client.handle(.refreshTimerFired, fresh: tokens)))
        #expect(client.status == .registering)
        _ = client.handle(.response(reply(403, to: retry)), fresh: tokens)
        #expect(client.status == .failed(.rejected(status: 403, reason: "R")))
    }

    @Test func stopUnregisters() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        _ = client.handle(.response(reply(200, to: first)), fresh: tokens)
        #expect(client.status == .registered(expires: 600))
        let stop = try #require(Self.sent(client.handle(.stop, fresh: tokens)))
        #expect(stop.values(SIPHeaderName.expires) == ["0"])
        _ = client.handle(.response(reply(200, to: stop)), fresh: tokens)
        #expect(client.status == .unregistered)
    }

    static let schedule: [(UInt32, Double)] = [(3600, 2880), (600, 480), (120, 88), (60, 30), (10, 5)]

    @Test(arguments: schedule)
    func refreshSchedule(expires: UInt32, seconds: Double) {
        #expect(RefreshSchedule.delay(forGrantedSeconds: expires) == .milliseconds(Int64(seconds * 1000)))
    }

    @Test func aDisplayNameIsQuotedInFromAndTo() throws {
        var named = config
        named.displayName = #"Gate "3" \ North"#
        var client = RegistrationClient(config: named)
        let request = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        #expect(request.values(SIPHeaderName.from) == [#""Gate \"3\" \\ North" <sip:alice@example.com>;tag=ft"#])
        #expect(try request.to().displayName == #""Gate \"3\" \\ North""#)
        try request.validateRequest()
    }
}
