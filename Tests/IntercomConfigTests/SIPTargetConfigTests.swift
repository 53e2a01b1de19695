import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [call] target = \"sip:…\" (issue #18 item 4)")
struct SIPTargetConfigTests {
    static let sip = "[sip]\nregistrar = \"pbx.example\"\nuser = \"gate3\"\n"

    @Test("a SIP URI string is a .sip target; the [call.target] table still works beside it")
    func values() throws {
        for uri in ["sip:reception@pbx.example", "sip:620@192.168.178.1:5060", "sip:[2001:db8::1]", "sip:desk@pbx.example;user=phone"] {
            let configuration = try #require(load(minimalConfig + "[call]\ntarget = \"\(uri)\"\n" + Self.sip).configuration)
            #expect(configuration.call.target == .sip(uri: uri))
        }
        let table = try #require(load(minimalConfig + "[call.target]\nuser_id = \"u1\"\n").configuration)
        #expect(table.call.target == .user(id: "u1"))
    }

    @Test("a malformed URI, sips:, or a SIP target without [sip] are problems at the target's line")
    func problems() {
        for bad in ["reception@pbx.example", "sip:", "sip:@pbx", "sip:a@b@c", "sip:a@pbx:0", "sip:a@pbx:99999", "sip:a b@pbx",
                    "sip:a@[::1", "sip:a@-pbx"] {
            #expect(problemLines(load(minimalConfig + "[call]\ntarget = \"\(bad)\"\n" + Self.sip)) == [
                "intercom.toml:9: call.target: expected a SIP URI such as \"sip:reception@pbx.example\", got \"\(bad)\"",
            ], "\(bad)")
        }
        #expect(problemLines(load(minimalConfig + "[call]\ntarget = \"sips:a@pbx\"\n" + Self.sip)) == [
            "intercom.toml:9: call.target: sips: needs TLS, which the SIP agent does not have; use sip:",
        ])
        #expect(problemLines(load(minimalConfig + "[call]\ntarget = \"sip:a@pbx\"\n")) == [
            "intercom.toml:9: call.target: a SIP target needs [sip]: the call goes through its registrar",
        ])
        #expect(problemLines(load(minimalConfig + "[call]\ntarget = 5\n")) == [
            "intercom.toml:9: call.target: expected a table, got integer",
        ])
    }
}
