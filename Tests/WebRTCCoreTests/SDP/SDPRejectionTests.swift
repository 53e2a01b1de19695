import Testing
@testable import WebRTCCore

/// One malformed document and the exact error it must produce.
struct SDPRejectionCase: Sendable, CustomTestStringConvertible {
    let name: String
    let text: String
    let expected: SDPError
    var testDescription: String { name }

    /// Lines of a minimal valid offer: 1 v, 2 o, 3 s, 4 t, 5 group, 6 m, 7 mid, 8 rtpmap.
    static let base = [
        "v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE a",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111", "a=mid:a", "a=rtpmap:111 opus/48000/2",
    ]

    init(_ name: String, _ lines: [String], line: Int, _ reason: SDPError.Reason) {
        self.name = name
        self.text = lines.joined(separator: "\r\n") + "\r\n"
        self.expected = SDPError(line: line, reason: reason)
    }

    /// The base with `line` (1-based) replaced.
    static func replacing(_ line: Int, with text: String) -> [String] {
        var lines = base
        lines[line - 1] = text
        return lines
    }

    static let all: [SDPRejectionCase] = [
        .init("missing v=", Array(base.dropFirst()), line: 1, .missingVersion),
        .init("v=1", replacing(1, with: "v=1"), line: 1, .unsupportedVersion("1")),
        .init("second v=", replacing(3, with: "v=0"), line: 3, .duplicateLine(type: "v")),
        .init("missing o=", base.filter { !$0.hasPrefix("o=") }, line: 0, .missingOrigin),
        .init("second o=", replacing(3, with: base[1]), line: 3, .duplicateLine(type: "o")),
        .init("o= with five fields", replacing(2, with: "o=- 1 2 IN IP4"), line: 2, .malformedOrigin),
        .init("o= after m=", base + [base[1]], line: 9, .misplacedLine(type: "o")),
        .init("missing m=", Array(base.prefix(4)), line: 0, .missingMediaSection),
        .init("m= without formats", replacing(6, with: "m=audio 9 UDP/TLS/RTP/SAVPF"), line: 6, .malformedMediaLine),
        .init("port above 65535", replacing(6, with: "m=audio 70000 UDP/TLS/RTP/SAVPF 111"), line: 6,
              .invalidPort("70000")),
        .init("negative port", replacing(6, with: "m=audio -1 UDP/TLS/RTP/SAVPF 111"), line: 6, .invalidPort("-1")),
        .init("payload type 128", replacing(6, with: "m=audio 9 UDP/TLS/RTP/SAVPF 128"), line: 6,
              .invalidPayloadType("128")),
        .init("payload type listed twice", replacing(6, with: "m=audio 9 UDP/TLS/RTP/SAVPF 111 111"), line: 6,
              .duplicatePayloadType(111)),
        .init("rtpmap without clock rate", replacing(8, with: "a=rtpmap:111 opus"), line: 8,
              .rtpmapMissingClockRate(payloadType: 111)),
        .init("rtpmap with clock rate 0", replacing(8, with: "a=rtpmap:111 opus/0"), line: 8,
              .malformedAttribute(name: "rtpmap")),
        .init("rtpmap for an absent payload type", replacing(8, with: "a=rtpmap:100 VP8/90000"), line: 8,
              .unknownPayloadType(attribute: "rtpmap", payloadType: 100)),
        .init("fmtp for an absent payload type", base + ["a=fmtp:100 apt=111"], line: 9,
              .unknownPayloadType(attribute: "fmtp", payloadType: 100)),
        .init("second rtpmap for a payload type", base + ["a=rtpmap:111 opus/48000/2"], line: 9,
              .duplicateAttribute(name: "rtpmap:111")),
        .init("extmap id 0", base + ["a=extmap:0 urn:ietf:params:rtp-hdrext:sdes:mid"], line: 9,
              .invalidExtensionID("0")),
        .init("extmap id 15", base + ["a=extmap:15 urn:ietf:params:rtp-hdrext:sdes:mid"], line: 9,
              .invalidExtensionID("15")),
        .init("extmap id 300", base + ["a=extmap:300 urn:x"], line: 9, .invalidExtensionID("300")),
        .init("extmap id used twice", base + ["a=extmap:3 urn:a", "a=extmap:3 urn:b"], line: 10,
              .duplicateAttribute(name: "extmap:3")),
        .init("fingerprint with bad hex", base + ["a=fingerprint:sha-1 " + Array(repeating: "ZZ", count: 20).joined(separator: ":")],
              line: 9, .malformedFingerprint),
        .init("fingerprint too short", base + ["a=fingerprint:sha-256 AB:CD"], line: 9,
              .fingerprintLength(hashFunction: "sha-256", expectedBytes: 32, actualBytes: 2)),
        .init("fingerprint with an unknown hash", base + ["a=fingerprint:sha-3 AB:CD"], line: 9,
              .unsupportedHashFunction("sha-3")),
        .init("fingerprint without a digest", base + ["a=fingerprint:sha-256"], line: 9,
              .malformedAttribute(name: "fingerprint")),
        .init("setup:both", base + ["a=setup:both"], line: 9, .invalidSetup("both")),
        .init("second setup", base + ["a=setup:active", "a=setup:passive"], line: 10,
              .duplicateAttribute(name: "setup")),
        .init("ice-ufrag of 3 characters", base + ["a=ice-ufrag:abc"], line: 9, .iceUfragLength(3)),
        .init("ice-ufrag of 257 characters", base + ["a=ice-ufrag:" + String(repeating: "a", count: 257)], line: 9,
              .iceUfragLength(257)),
        .init("ice-ufrag with a space", base + ["a=ice-ufrag:ab cd"], line: 9,
              .invalidICECharacter(attribute: "ice-ufrag")),
        .init("ice-pwd of 21 characters", base + ["a=ice-pwd:" + String(repeating: "p", count: 21)], line: 9,
              .icePasswordLength(21)),
        .init("duplicate mid", base + ["m=video 9 UDP/TLS/RTP/SAVPF 96", "a=mid:a"], line: 10, .duplicateMid("a")),
        .init("second mid in one section", base + ["a=mid:b"], line: 9, .duplicateAttribute(name: "mid")),
        .init("BUNDLE naming a missing mid", replacing(5, with: "a=group:BUNDLE a b"), line: 5,
              .groupNamesMissingMid(semantics: "BUNDLE", mid: "b")),
        .init("two directions", base + ["a=sendrecv", "a=sendonly"], line: 10, .duplicateAttribute(name: "direction")),
        .init("SSRC above 32 bits", base + ["a=ssrc:4294967296 cname:x"], line: 9, .invalidSSRC("4294967296")),
        .init("ssrc-group with a bad SSRC", base + ["a=ssrc-group:FID 1 x"], line: 9, .invalidSSRC("x")),
        .init("line without =", base + ["garbage"], line: 9, .malformedLine),
        .init("upper-case line type", base + ["A=mid:b"], line: 9, .malformedLine),
        .init("NUL inside a line", base + ["a=mid\u{0}:b"], line: 9, .controlCharacter),
        .init("bare CR inside a line", base + ["a=x\ry"], line: 9, .controlCharacter),
    ]
}

@Suite("SDP rejections")
struct SDPRejectionTests {
    @Test("rejects with the line number and reason", arguments: SDPRejectionCase.all)
    func rejects(_ rejection: SDPRejectionCase) {
        #expect(throws: rejection.expected) { try SessionDescription(parsing: rejection.text) }
    }

    @Test("error messages name the line and the reason")
    func messages() {
        let port = SDPError(line: 6, reason: .invalidPort("70000"))
        #expect(port.description == "SDP line 6: port '70000' is not a number in 0...65535")
        let bundle = SDPError(line: 5, reason: .groupNamesMissingMid(semantics: "BUNDLE", mid: "b"))
        #expect(bundle.description == "SDP line 5: a=group:BUNDLE names mid 'b', which no m= section has")
        let extmap = SDPError(line: 9, reason: .invalidExtensionID("15"))
        #expect(extmap.description == "SDP line 9: extmap id '15' is not in 1...14 (one-byte header, RFC 8285)")
        #expect(SDPError(line: 0, reason: .missingOrigin).description == "SDP: no o= line before the first m= line")
    }

    @Test("rejects input over 64 KiB before reading it")
    func inputLimit() {
        let text = SDPRejectionCase.base.joined(separator: "\r\n") + "\r\n"
            + String(repeating: "a=x-filler:0123456789abcdef\r\n", count: 2500)
        let size = text.utf8.count
        #expect(size > 64 * 1024)
        #expect(throws: SDPError(line: 0, reason: .inputTooLarge(bytes: size, limit: 65536))) {
            try SessionDescription(parsing: text)
        }
    }

    @Test("rejects a line over 8 KiB")
    func lineLimit() {
        let long = "a=x-long:" + String(repeating: "x", count: 8200)
        let text = (SDPRejectionCase.base + [long]).joined(separator: "\r\n")
        #expect(throws: SDPError(line: 9, reason: .lineTooLong(bytes: long.utf8.count, limit: 8192))) {
            try SessionDescription(parsing: text)
        }
    }

    @Test("rejects a 65th m= section")
    func mediaSectionLimit() {
        let sections = (0..<65).map { "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=mid:m\($0)" }
        let text = (Array(SDPRejectionCase.base.prefix(4)) + sections).joined(separator: "\r\n")
        // Each section is two lines after the four session lines; the 65th m= is line 4 + 64*2 + 1.
        #expect(throws: SDPError(line: 133, reason: .tooManyMediaSections(limit: 64))) {
            try SessionDescription(parsing: text)
        }
        let allowed = (Array(SDPRejectionCase.base.prefix(4)) + sections.prefix(64)).joined(separator: "\r\n")
        #expect((try? SessionDescription(parsing: allowed))?.media.count == 64)
    }
}
