import SIPCore
import Testing

@Suite("Registration client: a new Contact at once (.rebind)")
struct RegistrationRebindTests {
    let config = RegistrationConfig(
        registrar: try! SIPURI("sip:example.com"), addressOfRecord: try! SIPURI("sip:alice@example.com"),
        contact: try! SIPURI("sip:alice@192.168.1.2:5060"), credentials: nil, requestedExpires: 600,
        localHost: "192.168.1.2", localPort: 5060, callID: "reg-call", fromTag: "ft")
    let tokens = FreshTokens(branch: "b", cnonce: "cn")

    static func sent(_ actions: [RegistrationAction]) -> SIPMessage? {
        for case .send(let message) in actions { return message }
        return nil
    }

    func ok(_ request: SIPMessage, via: String) -> SIPMessage {
        var response = ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: "srv", extraHeaders: [
            SIPHeader(SIPHeaderName.contact, request.values(SIPHeaderName.contact)[0] + ";expires=600"),
        ])
        response.setHeader(SIPHeaderName.via, via)
        return response
    }

    @Test("the new Contact and Via at once, same Call-ID, next CSeq, the old Contact removed until a 2xx")
    func rebind() throws {
        var client = RegistrationClient(config: config)
        let first = try #require(Self.sent(client.handle(.start, fresh: tokens)))
        _ = client.handle(.response(ok(first, via: "SIP/2.0/UDP 192.168.1.2:5060;branch=z9hG4bKb;rport=5060")), fresh: tokens)
        #expect(client.status == .registered(expires: 600))

        let moved = try SIPURI("sip:alice@10.0.0.7:5060")
        let second = try #require(Self.sent(client.handle(.rebind(contact: moved, localHost: "10.0.0.7", localPort: 5060), fresh: tokens)))
        #expect(try second.callID() == "reg-call" && second.cseq().number == 2)
        #expect(second.values(SIPHeaderName.contact) == ["<sip:alice@10.0.0.7:5060>", "<sip:alice@192.168.1.2:5060>;expires=0"])
        #expect(try second.topVia().host == "10.0.0.7")
        #expect(client.config.contact == moved && client.status == .registered(expires: 600))

        _ = client.handle(.response(ok(second, via: "SIP/2.0/UDP 10.0.0.7:5060;branch=z9hG4bKb;rport=5060")), fresh: tokens)
        let refresh = try #require(Self.sent(client.handle(.refreshTimerFired, fresh: tokens)))
        #expect(refresh.values(SIPHeaderName.contact) == ["<sip:alice@10.0.0.7:5060>"])
    }

    @Test("a rebind while unregistering sends nothing")
    func notWhileStopping() throws {
        var client = RegistrationClient(config: config)
        _ = client.handle(.start, fresh: tokens)
        _ = client.handle(.stop, fresh: tokens)
        let moved = try SIPURI("sip:alice@10.0.0.7:5060")
        #expect(client.handle(.rebind(contact: moved, localHost: "10.0.0.7", localPort: 5060), fresh: tokens).isEmpty)
    }
}
