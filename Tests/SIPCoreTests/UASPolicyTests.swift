import SIPCore
import Testing

@Suite("UAS policy")
struct UASPolicyTests {
    let policy = UASPolicy()
    let invite = try! parse(sampleInvite)

    func request(_ method: String) throws -> SIPMessage {
        try parse(sampleInvite.replacingOccurrences("INVITE sip:", "\(method) sip:").replacingOccurrences("1 INVITE", "1 \(method)"))
    }

    @Test func referIs405AndUnknownIs501WithAllow() throws {
        let refer = try #require(policy.response(to: try request("REFER"), toTag: "t"))
        #expect(refer.statusCode == 405)
        #expect(refer.values(SIPHeaderName.allow) == ["INVITE, ACK, BYE, CANCEL, OPTIONS"])
        #expect(try refer.to().tag == "t")
        let unknown = try #require(policy.response(to: try request("FROBNICATE"), toTag: "t"))
        #expect(unknown.statusCode == 501)
        #expect(!unknown.values(SIPHeaderName.allow).isEmpty)
    }

    @Test func optionsGetsAllowAndAccept() throws {
        let ok = try #require(policy.response(to: try request("OPTIONS"), toTag: "t"))
        #expect(ok.statusCode == 200)
        #expect(ok.values(SIPHeaderName.accept) == ["application/sdp"])
        #expect(!ok.values(SIPHeaderName.allow).isEmpty)
    }

    @Test func inviteRefusals() throws {
        #expect(policy.response(to: invite, toTag: "t") == nil)
        #expect(policy.response(to: invite, situation: .init(busy: true), toTag: "t")?.statusCode == 486)
        #expect(policy.response(to: invite, situation: .init(pendingReinvite: true), toTag: "t")?.statusCode == 491)
        #expect(policy.response(to: invite, situation: .init(offerUnusable: true), toTag: "t")?.statusCode == 488)
        #expect(policy.response(to: try request("BYE"), toTag: "t") == nil)
        #expect(policy.response(to: try request("ACK"), situation: .init(busy: true), toTag: "t") == nil)
    }

    @Test func rfc4475Bext01Gets420() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.bext01.bytes)
        let response = try #require(policy.response(to: message, toTag: "t"))
        #expect(response.statusCode == 420)
        #expect(response.values(SIPHeaderName.unsupported) == ["nothingSupportedHere"])
    }

    @Test func rfc4475Sdp01Gets406() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.sdp01.bytes)
        #expect(policy.response(to: message, toTag: "t")?.statusCode == 406)
    }
}
