import IntercomPlatform
import WebRTC

/// Why a SIP call's RTP socket could not be set up or used. An unusable offer is `SIPAudioAnswerError`
/// instead (the reason of a 488).
public enum SIPAudioCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failing system call and its errno.
    case system(SystemCallError)
    /// A host that is not a numeric address (`localHost`, or the offer's c=).
    case address(host: String, reason: String)
    /// `accept(answer:)` on a call that answered an offer itself, or that already started.
    case notOffering
    /// libsrtp refused the negotiated SDES keys.
    case srtp(SRTPError)

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .address(let host, let reason): "RTP address \"\(host)\": \(reason)"
        case .notOffering: "no offer of ours waits for an answer"
        case .srtp(let error): "SRTP: \(error)"
        }
    }
}
