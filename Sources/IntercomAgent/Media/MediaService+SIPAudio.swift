import Logging
import Synchronization
import WebRTCCore

extension MediaService {
    /// Answers `offer` (`SIPAudioAnswerer`, `codecs` in this order: PCMU, PCMA unless `[sip] codecs` says otherwise), binds a UDP
    /// socket for RTP on `localHost` (an even port), and returns the call, fed by this service's microphone
    /// and played on its speaker once started; `srtp` (`[sip] srtp`) says whether RTP/SAVP with SDES keys is
    /// refused, taken or required. Throws `SIPAudioAnswerError` for an unusable offer (the caller sends 488),
    /// `SDPError` for an unparsable one, `SIPAudioCallError` for the socket.
    public func sipAudioCall(offer: String, localHost: String, codecs: [SIPAudioCodec] = [.pcmu, .pcma],
                             srtp: SIPSRTPMode) throws -> SIPAudioCall {
        try SIPAudioCall(offer: offer, localHost: localHost, codecs: codecs, srtp: srtp,
                         endpoints: MediaSIPAudioEndpoints(media: self), logger: logger)
    }

    /// A call the device places: the SDP offer (`offer`) on an RTP port bound on `localHost`, RTP/SAVP when
    /// `srtp` is mandatory; the callee's answer goes to `accept(answer:)` before `start`.
    public func sipAudioOffer(localHost: String, codecs: [SIPAudioCodec] = [.pcmu, .pcma], srtp: SIPSRTPMode) throws -> SIPAudioCall {
        try SIPAudioCall(localHost: localHost, codecs: codecs, srtp: srtp, endpoints: MediaSIPAudioEndpoints(media: self),
                         logger: logger)
    }
}

/// A SIP call's microphone and speaker on `MediaService`: a subscription to the pipeline's `AudioFanOut`
/// (the Opus packets every WebRTC peer gets: sent as they are when the call negotiated Opus, decoded on the
/// call's thread for G.711), a demand that keeps the pipeline running while the call lasts, and a claim of
/// `SpeakerPlayout` in the call's codec (Opus plays as a WebRTC peer's does, with FEC and concealment).
final class MediaSIPAudioEndpoints: SIPAudioEndpoints {
    private let media: MediaService
    private let holder: String
    private let feed = Mutex<Task<Void, Never>?>(nil)
    private let claim = Mutex<UInt64?>(nil)
    private static let nextHolder = Atomic<UInt64>(0)

    init(media: MediaService) {
        self.media = media
        holder = "sip-call-\(Self.nextHolder.add(1, ordering: .relaxed).newValue)"
    }

    func attachMicrophone(_ deliver: @escaping @Sendable (SIPMicrophoneFrame) -> Void) {
        media.setDemand(holder, wanted: true)
        let packets = media.audio.subscribe()
        feed.withLock { $0 = Task { for await packet in packets { deliver(.opus(packet)) } } }
    }

    func claimSpeaker(codec: SIPAudioCodec) -> (any SIPAudioOutput)? {
        let speaker = media.speaker
        guard let claimed = speaker.claim(codec: codec) else { return nil }
        claim.withLock { $0 = claimed }
        return SpeakerClaimOutput(speaker: speaker, claim: claimed)
    }

    func detach() {
        if let task = feed.withLock({ $0 }) {
            task.cancel()
            media.setDemand(holder, wanted: false)
        }
        if let claimed = claim.withLock({ $0 }) { media.speaker.release(claimed) }
    }
}

/// The received G.711 or Opus payloads into the speaker's jitter buffer for one claim.
struct SpeakerClaimOutput: SIPAudioOutput {
    let speaker: SpeakerPlayout
    let claim: UInt64

    func play(sequenceNumber: UInt16, payload: [UInt8]) {
        speaker.enqueue(sequenceNumber: sequenceNumber, payload: payload, claim: claim)
    }
}
