import CSRTP

/// Protects outgoing and unprotects incoming RTP/RTCP with libsrtp2 for one DTLS-SRTP association.
/// The outbound context uses our local key with `ssrc_any_outbound`, the inbound one the peer's key with
/// `ssrc_any_inbound` (Janus dtls.c). Single owner, not thread-safe (libsrtp contexts are not).
///
/// Retransmissions (RTX/NACK replies) must resend the stored *protected* packet: libsrtp refuses to
/// protect the same sequence number twice (`srtp_err_status_replay_fail`, `allow_repeat_tx` stays off
/// because re-encrypting different payload under the same index would break the cipher's security).
public final class SRTPSession {
    /// Replay window for inbound packets; video bursts need more than libsrtp's default 128.
    public static let defaultReplayWindow = 1024

    public let profile: SRTPProfile
    private let outbound: OpaquePointer
    private let inbound: OpaquePointer

    public init(keys: SRTPKeyMaterial, replayWindow: Int = SRTPSession.defaultReplayWindow) throws(SRTPError) {
        try SRTPLibrary.ensureInitialized()
        // libsrtp accepts windows of 64 ..< 0x8000 and reads exactly key + salt bytes from the key pointer.
        guard (64 ... 0x7FFF).contains(replayWindow) else { throw SRTPError(call: "srtp_create", status: .badParam) }
        let profile = keys.profile
        guard keys.localKey.count == profile.keyLength, keys.remoteKey.count == profile.keyLength,
              keys.localSalt.count == profile.saltLength, keys.remoteSalt.count == profile.saltLength else {
            throw SRTPError(call: "srtp_create", status: .badParam)
        }
        self.profile = profile
        outbound = try Self.create(profile: keys.profile, key: keys.localKey + keys.localSalt,
                                   direction: ssrc_any_outbound, replayWindow: replayWindow)
        do {
            inbound = try Self.create(profile: keys.profile, key: keys.remoteKey + keys.remoteSalt,
                                      direction: ssrc_any_inbound, replayWindow: replayWindow)
        } catch {
            srtp_dealloc(outbound)
            throw error
        }
    }

    deinit {
        srtp_dealloc(outbound)
        srtp_dealloc(inbound)
    }

    /// RTP in, SRTP out (`srtp_protect`).
    public func protectRTP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try run("srtp_protect", outbound, packet, headroom: Int(SRTP_MAX_TRAILER_LEN)) { srtp_protect($0, $1, $2) }
    }

    /// SRTP in, RTP out (`srtp_unprotect`): throws `authFail` for tampering, `replayFail`/`replayOld` for replays.
    public func unprotectRTP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try run("srtp_unprotect", inbound, packet, headroom: 0) { srtp_unprotect($0, $1, $2) }
    }

    /// RTCP in, SRTCP out (`srtp_protect_rtcp`; adds the 4-byte E|index word plus the tag).
    public func protectRTCP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try run("srtp_protect_rtcp", outbound, packet, headroom: Int(SRTP_MAX_TRAILER_LEN) + 4) {
            srtp_protect_rtcp($0, $1, $2)
        }
    }

    /// SRTCP in, RTCP out (`srtp_unprotect_rtcp`).
    public func unprotectRTCP(_ packet: [UInt8]) throws(SRTPError) -> [UInt8] {
        try run("srtp_unprotect_rtcp", inbound, packet, headroom: 0) { srtp_unprotect_rtcp($0, $1, $2) }
    }

    private func run(
        _ call: String, _ context: OpaquePointer, _ packet: [UInt8], headroom: Int,
        _ body: (OpaquePointer, UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>) -> srtp_err_status_t
    ) throws(SRTPError) -> [UInt8] {
        guard !packet.isEmpty, packet.count <= Int(Int32.max) - headroom else {
            throw SRTPError(call: call, status: .badParam)
        }
        var buffer = packet + [UInt8](repeating: 0, count: headroom)
        var length = Int32(packet.count)
        let status = buffer.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return srtp_err_status_bad_param }
            return body(context, base, &length)
        }
        if let error = SRTPError(call: call, code: status) { throw error }
        return Array(buffer.prefix(Int(length)))
    }

    private static func create(
        profile: SRTPProfile, key: [UInt8], direction: srtp_ssrc_type_t, replayWindow: Int
    ) throws(SRTPError) -> OpaquePointer {
        var policy = srtp_policy_t()
        if let error = SRTPError(call: "srtp_crypto_policy_set_from_profile_for_rtp",
                                 code: srtp_crypto_policy_set_from_profile_for_rtp(&policy.rtp, profile.libsrtpProfile)) {
            throw error
        }
        // For the _32 profile this keeps SRTCP at an 80-bit tag, as RFC 5764 §4.1.2 requires.
        if let error = SRTPError(call: "srtp_crypto_policy_set_from_profile_for_rtcp",
                                 code: srtp_crypto_policy_set_from_profile_for_rtcp(&policy.rtcp, profile.libsrtpProfile)) {
            throw error
        }
        policy.ssrc.type = direction
        policy.window_size = UInt(replayWindow)
        policy.allow_repeat_tx = 0
        policy.next = nil
        var keyBytes = key
        var session: OpaquePointer?
        let status = keyBytes.withUnsafeMutableBufferPointer { buffer in
            policy.key = buffer.baseAddress
            return srtp_create(&session, &policy)
        }
        if let error = SRTPError(call: "srtp_create", code: status) { throw error }
        guard let session else { throw SRTPError(call: "srtp_create", status: .allocFail) }
        return session
    }
}
