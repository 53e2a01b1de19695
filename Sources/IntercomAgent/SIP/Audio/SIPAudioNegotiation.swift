import WebRTC
import WebRTCCore

/// What the offer/answer of a SIP call settled (RFC 3264): the codec and payload types, the SDES keys when
/// RTP/SAVP (RFC 4568), and the remote RTP and RTCP addresses as socket addresses.
struct SIPAudioNegotiation: Sendable {
    var chosen: SIPAudioAnswerer.Answer
    /// nil for an unspecified address (0.0.0.0, `::`) or port 0: nothing is sent before the latch (RFC 4961).
    var remote: RTPSocketAddress?
    /// The RTP port + 1 (RFC 3550 §11).
    var remoteRTCP: RTPSocketAddress?

    init(_ chosen: SIPAudioAnswerer.Answer) throws(SIPAudioCallError) {
        self.chosen = chosen
        let unspecified = ["0.0.0.0", "::"].contains(chosen.remoteAddress) || chosen.remotePort == 0
        remote = unspecified ? nil : try RTPSocketAddress(numericHost: chosen.remoteAddress, port: chosen.remotePort)
        remoteRTCP = remote.flatMap { $0.port < .max ? $0.withPort($0.port + 1) : nil }
        // libsrtp checks the keys now, so a call it cannot protect fails before its 200 OK or ACK, not on the
        // RTP thread. The thread makes its own session: one owner, as libsrtp contexts are not thread-safe.
        if let keys = chosen.srtp {
            do {
                _ = try keys.session()
            } catch {
                throw .srtp(error)
            }
        }
    }

    /// `srtp=AES_CM_128_HMAC_SHA1_80` or `srtp=off` in the log lines and counters.
    var srtpName: String { chosen.srtp?.suite.rawValue ?? "off" }
}
