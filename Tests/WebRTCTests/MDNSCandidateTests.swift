import Testing
import WebRTC
import WebRTCCore

/// A peer's `.local` host candidates (draft-ietf-mmusic-mdns-ice-candidates) go through the configured resolver
/// into libnice: resolved, the candidate is used; unresolved, the call still connects on the checks the peer
/// sends (a peer-reflexive candidate), and the event says why.
@Suite("PeerConnection: mDNS candidates", .serialized)
struct MDNSCandidateTests {
    static let name = "3f0c6a4e-2b8d-4c1e-9f7a-5d6e8b9c0a1f.local"

    /// Answers from a table, as a resolver on the caller's LAN would.
    struct TableResolver: MDNSNameResolving {
        let table: [String: String]
        func resolve(_ name: MDNSHostName) async -> Result<String, MDNSResolutionError> {
            if let address = table[name.description] { return .success(address) }
            return .failure(.noAnswer(name, waited: .milliseconds(10)))
        }
    }

    /// The offerer's candidates reach the answerer with `127.0.0.1` replaced by `name`, as a browser hides them.
    func connect(resolver: TableResolver) async throws -> [PeerConnectionEvent] {
        let loopback = ["127.0.0.1"]
        let offerer = try await PeerConnection(role: .offerer, certificate: try DTLSCertificate(commonName: "browser"),
                                               configuration: PeerConnectionConfiguration(localAddresses: loopback))
        let answerer = try await PeerConnection(
            role: .answerer, certificate: try DTLSCertificate(commonName: "device"),
            configuration: PeerConnectionConfiguration(capabilities: MediaCapabilities(videoDirection: .recvonly),
                                                       localAddresses: loopback, mdnsResolver: resolver))
        let offererEvents = StreamRecorder<PeerConnectionEvent>()
        let answererEvents = StreamRecorder<PeerConnectionEvent>()
        offererEvents.record(offerer.events) { event in
            switch event {
            case let .localCandidate(candidate, _, _):
                try? await answerer.addRemoteCandidate(candidate.replacingOccurrences(of: " 127.0.0.1 ", with: " \(Self.name) "))
            case .localCandidatesComplete: try? await answerer.addRemoteCandidate(nil)
            default: break
            }
        }
        answererEvents.record(answerer.events) { event in
            switch event {
            case let .localCandidate(candidate, _, _): try? await offerer.addRemoteCandidate(candidate)
            case .localCandidatesComplete: try? await offerer.addRemoteCandidate(nil)
            default: break
            }
        }
        let offer = try await offerer.createOffer()
        try await offerer.startGathering()
        let answer = try await answerer.acceptOffer(offer)
        try await answerer.startGathering()
        try await offerer.acceptAnswer(answer)
        try await answererEvents.wait("the answerer connects and reports the name's resolution", within: .seconds(10)) { events in
            events.states.contains(.connected) && events.contains { if case .mdnsCandidate = $0 { true } else { false } }
        }
        await offerer.close()
        await answerer.close()
        return answererEvents.elements
    }

    static func resolution(_ events: [PeerConnectionEvent]) -> MDNSCandidateResolution? {
        events.compactMap { if case .mdnsCandidate(let resolution) = $0 { resolution } else { nil } }.first
    }

    @Test func aResolvedNameBecomesTheCandidateAndTheCallConnects() async throws {
        let events = try await connect(resolver: TableResolver(table: [Self.name: "127.0.0.1"]))
        let resolution = try #require(Self.resolution(events))
        #expect(resolution.name == Self.name && resolution.address == "127.0.0.1" && resolution.problem == nil)
        // The resolver answers at once, before the offerer's first check: the pair's remote side is the host
        // candidate, not one learnt from the checks.
        let remote = events.compactMap { if case .selectedPair(_, let remote) = $0 { remote } else { nil } }.last
        #expect(remote?.contains("127.0.0.1") == true && remote?.contains("typ host") == true, "\(remote ?? "no selected pair")")
    }

    @Test func anUnresolvedNameIsReportedAndTheCallStillConnectsOnThePeersChecks() async throws {
        let events = try await connect(resolver: TableResolver(table: [:]))
        let resolution = try #require(Self.resolution(events))
        #expect(resolution.address == nil && resolution.problem?.contains("no mDNS answer") == true)
        let remote = events.compactMap { if case .selectedPair(_, let remote) = $0 { remote } else { nil } }.last
        #expect(remote?.contains("typ prflx") == true)
    }
}
