import Foundation
@testable import IntercomAgent
import Testing

@Suite("WHEP answer: gathered candidates written into the first bundled section; the token file")
struct WHEPAnswerTests {
    static let answer = [
        "v=0", "o=- 4611 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0 1", "a=msid-semantic: WMS",
        "m=video 9 UDP/TLS/RTP/SAVPF 96", "c=IN IP4 0.0.0.0", "a=mid:0", "a=sendonly", "a=rtcp-mux",
        "a=rtpmap:96 VP8/90000", "a=ice-ufrag:abcd", "a=ice-pwd:0123456789abcdef012345",
        "a=fingerprint:sha-256 " + (0..<32).map { _ in "AB" }.joined(separator: ":"), "a=setup:active",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111", "c=IN IP4 0.0.0.0", "a=mid:1", "a=sendonly", "a=rtcp-mux",
        "a=rtpmap:111 opus/48000/2", "a=ice-ufrag:abcd", "a=ice-pwd:0123456789abcdef012345",
        "a=fingerprint:sha-256 " + (0..<32).map { _ in "AB" }.joined(separator: ":"), "a=setup:active",
    ].joined(separator: "\r\n") + "\r\n"

    static let candidates = ["candidate:1 1 UDP 2013266431 192.0.2.7 50000 typ host",
                             "candidate:2 1 TCP 1015022079 192.0.2.7 9 typ host tcptype active"]

    @Test("every candidate lands in the bundle's first section, with end-of-candidates when gathering finished")
    func candidatesInFirstSection() throws {
        let sdp = try WHEPAnswer.withCandidates(Self.answer, candidates: Self.candidates, complete: true)
        let sections = sdp.components(separatedBy: "m=")
        #expect(sections.count == 3)
        #expect(sections[1].contains("a=candidate:1 1 UDP 2013266431 192.0.2.7 50000 typ host\r\n"))
        #expect(sections[1].contains("a=candidate:2 1 TCP"))
        #expect(sections[1].contains("a=end-of-candidates"))
        #expect(!sections[2].contains("a=candidate"))
        #expect(!sdp.contains("candidate:candidate:"))
    }

    @Test("gathering cut short by the timeout: the candidates found, no end-of-candidates")
    func partialGathering() throws {
        let sdp = try WHEPAnswer.withCandidates(Self.answer, candidates: [Self.candidates[0]], complete: false)
        #expect(sdp.contains("a=candidate:1 1 UDP"))
        #expect(!sdp.contains("end-of-candidates"))
    }

    @Test("no candidate at all is our media failing, not an answer nobody can connect to")
    func noCandidates() {
        #expect(throws: WHEPError.mediaFailed("no ICE candidate was gathered")) {
            try WHEPAnswer.withCandidates(Self.answer, candidates: [], complete: true)
        }
    }

    @Test("the token file: its first line without white space; empty or missing files are refused")
    func tokenFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("whep-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("whep.token").path
        try "  t0ken-value \n".write(toFile: path, atomically: true, encoding: .utf8)
        let token = try WHEPToken.load(path: path)
        #expect(token.admits("Bearer t0ken-value"))
        #expect(!token.admits("Bearer t0ken-value2"))
        try "\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: WHEPError.tokenFile(path: path, reason: "the file is empty")) { try WHEPToken.load(path: path) }
        #expect(throws: WHEPError.self) { try WHEPToken.load(path: directory.appendingPathComponent("absent").path) }
    }
}
