import Testing
@testable import WebRTC

/// A browser's `.local` host candidate is recognised, and becomes a line libnice parses once its name is
/// resolved (draft-ietf-mmusic-mdns-ice-candidates §3.2.2).
@Suite("ICE candidate lines: mDNS names")
struct ICECandidateLineTests {
    static let chromium = "candidate:502522672 1 udp 2113937151 ee1cd255-7680-4301-bd64-989e0413ede7.local 40479 typ host generation 0 ufrag 2nxP network-cost 999"

    @Test func aLocalNameIsFoundInEverySpelling() {
        for line in [Self.chromium, "a=" + Self.chromium, String(Self.chromium.dropFirst("candidate:".count))] {
            #expect(ICECandidateLine.mdnsName(line) == "ee1cd255-7680-4301-bd64-989e0413ede7.local")
        }
        #expect(ICECandidateLine.mdnsName("candidate:1 1 udp 2113937151 192.168.1.5 40479 typ host") == nil)
        #expect(ICECandidateLine.mdnsName("candidate:1 1 udp") == nil)
        #expect(ICECandidateLine.mdnsName("") == nil)
    }

    @Test func theResolvedAddressReplacesTheNameOnly() throws {
        let line = try #require(ICECandidateLine.replacingConnectionAddress(Self.chromium, with: "10.20.0.2"))
        #expect(line == "a=candidate:502522672 1 udp 2113937151 10.20.0.2 40479 typ host generation 0 ufrag 2nxP network-cost 999")
        #expect(ICECandidateLine.grammarProblem(line) == nil)
    }
}
