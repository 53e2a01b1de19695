import IntercomConfig
import WebRTCCore

extension SIPSRTPMode {
    /// `[sip] srtp` as the answerer and offerer take it.
    init(_ setting: SIPSettings.SRTP) {
        switch setting {
        case .off: self = .off
        case .optional: self = .optional
        case .mandatory: self = .mandatory
        }
    }
}
