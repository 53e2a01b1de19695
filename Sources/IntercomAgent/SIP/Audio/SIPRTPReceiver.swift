import Media
import WebRTCCore

/// Sorts the datagrams arriving on a SIP call's RTP socket (sans-IO): the negotiated G.711 or Opus payload
/// type is audio (an Opus payload that is not an Opus packet, RFC 6716 §3.4, is dropped), the negotiated telephone-event type goes through `DTMFReceiver` (RFC 4733 §2.5.1), anything else
/// (other payload types, RTCP on the RTP port, not RTP at all) is dropped.
struct SIPRTPReceiver {
    enum Outcome: Equatable {
        /// A G.711 or Opus packet (its sequence number orders the jitter buffer; RTCP counts it).
        case audio(RTPPacket)
        /// A telephone-event packet; `digit` when it starts a new key press.
        case event(digit: Character?)
        case dropped(reason: String)
    }

    let codec: SIPAudioCodec
    let audioPayloadType: UInt8
    let telephoneEventPayloadType: UInt8?
    private var dtmf = DTMFReceiver()
    /// For the level meter only (the speaker decodes what it plays): at 8 kHz, where libopus decodes at a
    /// fraction of the 48 kHz cost and a voice's level is the same.
    private let opus: OpusDecoder?

    init(codec: SIPAudioCodec, audioPayloadType: UInt8, telephoneEventPayloadType: UInt8?) {
        self.codec = codec
        opus = codec == .opus ? try? OpusDecoder(sampleRate: 8000, channels: 1) : nil
        self.audioPayloadType = audioPayloadType
        self.telephoneEventPayloadType = telephoneEventPayloadType
    }

    mutating func receive(_ datagram: ArraySlice<UInt8>) -> Outcome {
        guard let packet = try? RTPPacket(parsing: datagram) else { return .dropped(reason: "not RTP") }
        if packet.payloadType == audioPayloadType {
            guard !packet.payload.isEmpty else { return .dropped(reason: "empty audio payload") }
            if codec == .opus, (try? OpusPacketInfo(validating: packet.payload)) == nil {
                return .dropped(reason: "not an Opus packet")
            }
            return .audio(packet)
        }
        if let telephoneEventPayloadType, packet.payloadType == telephoneEventPayloadType {
            guard (try? TelephoneEvent(parsing: packet.payload)) != nil else { return .dropped(reason: "malformed telephone-event") }
            return .event(digit: dtmf.receive(packet)?.key)
        }
        return .dropped(reason: "payload type \(packet.payloadType) not negotiated")
    }

    /// The linear 8 kHz samples of one audio payload (none for an Opus packet libopus refuses).
    func decode(_ payload: [UInt8]) -> [Int16] {
        switch codec {
        case .pcmu: G711.muLaw(decoding: payload)
        case .pcma: G711.aLaw(decoding: payload)
        case .opus: (try? opus?.decode(payload)) ?? []
        }
    }
}
