import WebRTC
import WebRTCCore

extension SIPSRTPKeys {
    /// The libsrtp profile of the SDES suite: same transforms and tag lengths (RFC 4568 §6.2.1/§6.2.2; for _32,
    /// SRTCP keeps its 80-bit tag, which `SRTPSession` sets up).
    var profile: SRTPProfile {
        switch suite {
        case .aesCM128HMACSHA1_80: .aes128CMHMACSHA1_80
        case .aesCM128HMACSHA1_32: .aes128CMHMACSHA1_32
        }
    }

    /// Our key||salt protects what we send, the peer's what it sends (RFC 4568 §6.1: each crypto line is the
    /// key its writer sends with). Each key||salt is the master key followed by the master salt.
    var keyMaterial: SRTPKeyMaterial {
        let split = profile.keyLength
        return SRTPKeyMaterial(profile: profile, localKey: Array(local.prefix(split)), localSalt: Array(local.dropFirst(split)),
                               remoteKey: Array(remote.prefix(split)), remoteSalt: Array(remote.dropFirst(split)))
    }

    /// One libsrtp session for the call's sending and receiving (RTP and RTCP).
    func session() throws(SRTPError) -> SRTPSession {
        try SRTPSession(keys: keyMaterial)
    }
}
