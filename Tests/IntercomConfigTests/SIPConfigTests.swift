import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [sip] registration (issue #18)")
struct SIPConfigTests {
    func sipSettings(_ text: String, environment: [String: String] = [:]) throws -> SIPSettings {
        let configuration = try #require(load(text, environment: environment).configuration)
        return try #require(configuration.sip)
    }

    @Test("absent by default; defaults for port, transport, keepalive and expiry; every key read")
    func values() throws {
        #expect(try #require(load(minimalConfig).configuration).sip == nil)
        let defaults = try sipSettings(minimalConfig + "[sip]\nregistrar = \"pbx.example\"\nuser = \"gate3\"\n")
        #expect(defaults.registrarHost == "pbx.example" && defaults.registrarPort == 5060)
        #expect(defaults.user == "gate3" && defaults.authUser == "gate3" && defaults.passwordFile == nil)
        #expect(defaults.transport == .udp && defaults.localPort == 5060 && defaults.displayName == nil)
        #expect(defaults.keepAlive == .seconds(25) && defaults.registerExpiry == .seconds(600))
        #expect(defaults.srtp == .optional)
        #expect(defaults.contactRewrite)
        let text = minimalConfig + """
            [sip]
            registrar = "192.168.178.1:5070"
            user = "620"
            auth_user = "gate-auth"
            transport = "tcp"
            port = 0
            display_name = "Gate 3"
            keepalive = "10s"
            register_expiry = "5m"
            srtp = "mandatory"
            contact_rewrite = false

            """
        let sip = try sipSettings(text)
        #expect(!sip.contactRewrite)
        #expect(sip.registrarHost == "192.168.178.1" && sip.registrarPort == 5070)
        #expect(sip.user == "620" && sip.authUser == "gate-auth" && sip.transport == .tcp && sip.localPort == 0)
        #expect(sip.displayName == "Gate 3" && sip.keepAlive == .seconds(10) && sip.registerExpiry == .seconds(300))
        #expect(sip.srtp == .mandatory)
        #expect(try sipSettings(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\nsrtp = \"off\"\n").srtp == .off)
        let v6 = try sipSettings(minimalConfig + "[sip]\nregistrar = \"[2001:db8::1]:5062\"\nuser = \"a\"\n")
        #expect(v6.registrarHost == "[2001:db8::1]" && v6.registrarPort == 5062)
    }

    @Test("a missing or malformed registrar or user, a wrong transport or range are problems at their lines")
    func problems() {
        #expect(problemLines(load(minimalConfig + "[sip]\nuser = \"a\"\n")) == [
            "intercom.toml:8: sip: missing required key \"registrar\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\n")) == [
            "intercom.toml:8: sip: missing required key \"user\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"sip:pbx:99999\"\nuser = \"a\"\n")) == [
            "intercom.toml:9: sip.registrar: expected HOST or HOST:PORT (an IPv6 address in brackets), got \"sip:pbx:99999\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a b\"\n")) == [
            "intercom.toml:10: sip.user: expected a SIP user name (letters, digits and -_.!~*'()&=+$,;?/), got \"a b\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\ntransport = \"tls\"\n")) == [
            "intercom.toml:11: sip.transport: must be one of \"udp\", \"tcp\", got \"tls\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\nsrtp = \"required\"\n")) == [
            "intercom.toml:11: sip.srtp: must be one of \"off\", \"optional\", \"mandatory\", got \"required\"",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\nport = 70000\nregister_expiry = \"10s\"\n")) == [
            "intercom.toml:11: sip.port: must be between 0 and 65535, got 70000",
            "intercom.toml:12: sip.register_expiry: must be between 1m and 24h, got 10s",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\ncontact_rewrite = \"yes\"\n")) == [
            "intercom.toml:11: sip.contact_rewrite: expected true or false, got string",
        ])
        #expect(problemLines(load(minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\npassword = \"x\"\n")) == [
            "intercom.toml:11: sip.password: unknown key \"password\" (did you mean \"password_file\"?)",
        ])
    }

    @Test("codecs: G.711 unless set; any order, names case-insensitive; unknown, twice and none are problems at their lines")
    func codecs() throws {
        let sip = minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\n"
        #expect(try sipSettings(sip).codecs == [.pcmu, .pcma])
        #expect(try sipSettings(sip + "codecs = [\"opus\", \"pcmu\", \"pcma\"]\n").codecs == [.opus, .pcmu, .pcma])
        #expect(try sipSettings(sip + "codecs = [\"PCMA\", \"Opus\"]\n").codecs == [.pcma, .opus])
        #expect(problemLines(load(sip + "codecs = [\"opus\", \"g722\"]\n")) == [
            "intercom.toml:11: sip.codecs[1]: must be one of \"opus\", \"pcmu\", \"pcma\", got \"g722\"",
        ])
        #expect(problemLines(load(sip + "codecs = [\n  \"pcmu\",\n  \"PCMU\",\n]\n")) == [
            "intercom.toml:13: sip.codecs[1]: \"PCMU\" is listed twice",
        ])
        #expect(problemLines(load(sip + "codecs = []\n")) == [
            "intercom.toml:11: sip.codecs: needs at least one of \"opus\", \"pcmu\", \"pcma\"",
        ])
        #expect(problemLines(load(sip + "codecs = \"opus\"\n")) == [
            "intercom.toml:11: sip.codecs: expected an array of strings, got string",
        ])
    }

    @Test("post_dial_digits: none unless set; DTMF keys and commas, at most 32; anything else is a problem at its line")
    func postDialDigits() throws {
        let sip = minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\n"
        #expect(try sipSettings(sip).postDialDigits == "")
        #expect(try sipSettings(sip + "post_dial_digits = \"12,,34#*A\"\n").postDialDigits == "12,,34#*A")
        #expect(problemLines(load(sip + "post_dial_digits = \"12 34\"\n")) == [
            "intercom.toml:11: sip.post_dial_digits: expected at most 32 of 0-9 * # A-D and , (a one-second pause), got \"12 34\"",
        ])
        #expect(problemLines(load(sip + "post_dial_digits = \"\(String(repeating: "1", count: 33))\"\n")).count == 1)
        #expect(problemLines(load(sip + "post_dial_digits = \"\"\n")).count == 1)
    }

    @Test("video: on unless set to false; not a boolean is a problem at its line")
    func video() throws {
        let sip = minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"a\"\n"
        #expect(try sipSettings(sip).video)
        #expect(try !sipSettings(sip + "video = false\n").video)
        #expect(problemLines(load(sip + "video = \"no\"\n")) == ["intercom.toml:11: sip.video: expected true or false, got string"])
    }

    @Test("the password comes from a file or the systemd credential sip.password; an unreadable file is a problem")
    func password() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("pw\n", to: "sip.password")
        let text = minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"gate\"\n"
        let sip = try sipSettings(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path])
        #expect(sip.passwordFile == credentials.path("sip.password"))
        let explicit = try sipSettings(text + "password_file = \"\(credentials.path("sip.password"))\"\n")
        #expect(explicit.passwordFile == credentials.path("sip.password"))
        let missing = problemLines(load(text + "password_file = \"/nonexistent/sip.pw\"\n"))
        #expect(missing.count == 1 && missing[0].hasPrefix("intercom.toml:11: sip.password_file: cannot read secret file /nonexistent/sip.pw"))
    }

    @Test("calls: the allow-list and the door code file (4+ digits or *), the bad ones reported at their lines")
    func calls() throws {
        let files = try TemporaryDirectory()
        try files.write("1234*\n", to: "code")
        try files.write("12a\n", to: "bad-code")
        let text = minimalConfig + "[sip]\nregistrar = \"pbx\"\nuser = \"gate\"\n"
        let sip = try sipSettings(text + "allow = [\"sip:reception@pbx\", \"620\"]\ndoor_code_file = \"\(files.path("code"))\"\n")
        #expect(sip.allow == ["sip:reception@pbx", "620"] && sip.doorCodeFile == files.path("code"))
        let defaults = try sipSettings(text)
        #expect(defaults.allow.isEmpty && defaults.doorCodeFile == nil)
        #expect(problemLines(load(text + "door_code_file = \"\(files.path("bad-code"))\"\n")) == [
            "intercom.toml:11: sip.door_code_file: the door code in \(files.path("bad-code")) must be at least 4 digits or * on one line",
        ])
        let badAllow = problemLines(load(text + "allow = [\"ok\", \"has space\"]\n"))
        #expect(badAllow.count == 1 && badAllow[0].hasPrefix("intercom.toml:11: sip.allow"))
        #expect(badAllow.first?.contains("has space") == true)
    }
}
