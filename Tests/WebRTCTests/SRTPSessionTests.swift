import Testing
import WebRTC

@Suite struct SRTPSessionTests {
    private func rtp(sequence: UInt16, payload: [UInt8] = Array(repeating: 0xAB, count: 160)) -> [UInt8] {
        [0x80, 96, UInt8(sequence >> 8), UInt8(sequence & 0xFF), 0, 0, 0x10, 0, 0x12, 0x34, 0x56, 0x78] + payload
    }

    /// A receiver report with one empty block's worth of header (RFC 3550 §6.4.2, RC = 0).
    private let rtcp: [UInt8] = [0x80, 201, 0, 1, 0x12, 0x34, 0x56, 0x78]

    /// Sessions for both ends, keyed by a real in-memory DTLS handshake.
    private func sessions(_ profile: SRTPProfile) async throws -> (client: SRTPSession, server: SRTPSession) {
        let pair = try DTLSPair(profiles: [profile])
        try await pair.handshake()
        return (try SRTPSession(keys: try #require(pair.clientKeys)), try SRTPSession(keys: try #require(pair.serverKeys)))
    }

    @Test(arguments: SRTPProfile.allCases)
    func rtpAndRTCPRoundTripBetweenPeers(profile: SRTPProfile) async throws {
        let (client, server) = try await sessions(profile)
        let packet = rtp(sequence: 1)
        let protected = try client.protectRTP(packet)
        #expect(protected.count > packet.count)
        #expect(Array(protected[12...]) != Array(packet[12...]))
        #expect(try server.unprotectRTP(protected) == packet)

        let report = try server.protectRTCP(rtcp)
        #expect(try client.unprotectRTCP(report) == rtcp)
    }

    @Test func replayedPacketIsRefused() async throws {
        let (client, server) = try await sessions(.aes128CMHMACSHA1_80)
        let protected = try client.protectRTP(rtp(sequence: 5))
        _ = try server.unprotectRTP(protected)
        #expect(throws: SRTPError(call: "srtp_unprotect", status: .replayFail)) { try server.unprotectRTP(protected) }
    }

    @Test(arguments: [SRTPProfile.aes128CMHMACSHA1_80, .aeadAES128GCM])
    func tamperedPacketFailsAuthentication(profile: SRTPProfile) async throws {
        let (client, server) = try await sessions(profile)
        var protected = try client.protectRTP(rtp(sequence: 9))
        protected[20] ^= 0x01
        #expect(throws: SRTPError(call: "srtp_unprotect", status: .authFail)) { try server.unprotectRTP(protected) }
    }

    @Test func reprotectingTheSameSequenceNumberIsRefused() async throws {
        let (client, _) = try await sessions(.aeadAES256GCM)
        _ = try client.protectRTP(rtp(sequence: 3))
        #expect(throws: SRTPError(call: "srtp_protect", status: .replayFail)) { try client.protectRTP(rtp(sequence: 3)) }
    }

    @Test func keysOfTheWrongLengthOrATinyReplayWindowAreRejected() throws {
        let key = [UInt8](repeating: 1, count: 16)
        let salt = [UInt8](repeating: 2, count: 14)
        let good = SRTPKeyMaterial(profile: .aes128CMHMACSHA1_80, localKey: key, localSalt: salt, remoteKey: key, remoteSalt: salt)
        _ = try SRTPSession(keys: good)
        let short = SRTPKeyMaterial(profile: .aeadAES256GCM, localKey: key, localSalt: salt, remoteKey: key, remoteSalt: salt)
        #expect(throws: SRTPError(call: "srtp_create", status: .badParam)) { try SRTPSession(keys: short) }
        #expect(throws: SRTPError(call: "srtp_create", status: .badParam)) { try SRTPSession(keys: good, replayWindow: 10) }
    }

    @Test func exporterOutputIsSplitClientFirst() throws {
        let profile = SRTPProfile.aeadAES128GCM
        let exported = (0 ..< 56).map { UInt8($0) }
        let client = try #require(SRTPKeyMaterial(exported: exported, profile: profile, role: .client))
        let server = try #require(SRTPKeyMaterial(exported: exported, profile: profile, role: .server))
        #expect(client.localKey == Array(0 ..< 16))
        #expect(client.remoteKey == Array(16 ..< 32))
        #expect(client.localSalt == Array(32 ..< 44))
        #expect(client.remoteSalt == Array(44 ..< 56))
        #expect(server.localKey == client.remoteKey)
        #expect(server.localSalt == client.remoteSalt)
        #expect(SRTPKeyMaterial(exported: Array(exported.dropLast()), profile: profile, role: .client) == nil)
    }

    @Test func errorsCarryLibsrtpNames() {
        #expect(SRTPStatus.authFail.name == "srtp_err_status_auth_fail")
        #expect(SRTPStatus.replayFail.name == "srtp_err_status_replay_fail")
        #expect(SRTPStatus.pktIdxAdv.name == "srtp_err_status_pkt_idx_adv")
    }

    @Test func shortPacketIsAnErrorNotACrash() async throws {
        let (_, server) = try await sessions(.aes128CMHMACSHA1_32)
        #expect(throws: SRTPError.self) { try server.unprotectRTP([0x80, 96, 0]) }
        #expect(throws: SRTPError(call: "srtp_unprotect_rtcp", status: .badParam)) { try server.unprotectRTCP([]) }
    }
}
