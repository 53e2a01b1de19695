import WebRTCCore

/// One 20 ms frame of the device's microphone for a SIP call: 48 kHz mono PCM, or the Opus packet the
/// pipeline's `AudioFanOut` carries (decoded on the call's thread, never on the cooperative pool).
public enum SIPMicrophoneFrame: Sendable {
    case pcm([Int16])
    case opus([UInt8])
}

/// Where a received G.711 or Opus payload is played (the speaker's claim, decoded on the speaker's thread).
public protocol SIPAudioOutput: Sendable {
    func play(sequenceNumber: UInt16, payload: [UInt8])
}

/// The narrow edge between a SIP call's RTP thread and the device's audio, so the call can be tested with
/// a scripted microphone and speaker; `MediaService` adapts its fan-out and `SpeakerPlayout`.
public protocol SIPAudioEndpoints: Sendable {
    /// Starts handing microphone frames to `deliver` (from any thread) until `detach`.
    func attachMicrophone(_ deliver: @escaping @Sendable (SIPMicrophoneFrame) -> Void)
    /// Takes the speaker for this call's `codec` payloads; nil when there is none (or another call has it).
    func claimSpeaker(codec: SIPAudioCodec) -> (any SIPAudioOutput)?
    /// Stops the microphone frames and gives the speaker back; called once, when the call's thread ends.
    func detach()
}
