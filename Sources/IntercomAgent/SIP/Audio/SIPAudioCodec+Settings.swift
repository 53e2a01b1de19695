import IntercomConfig
import WebRTCCore

extension SIPAudioCodec {
    /// One entry of `[sip] codecs` as the answerer and offerer take it.
    init(_ setting: SIPSettings.Codec) {
        switch setting {
        case .opus: self = .opus
        case .pcmu: self = .pcmu
        case .pcma: self = .pcma
        }
    }
}
