import Media
import WebRTCCore

/// Sorts the datagrams arriving on a SIP call's RTP socket (sans-IO): the negotiated G.711 payload type is
/// audio, the negotiated telephone-event type goes through `DTMFReceiver` (RFC 4733 §2.5.1), anything else
/// (other payload types, RTCP on the RTP port, not RTP at all) is dropped.
struct SIPRTPReceiver {
    enum Outcome: Equatable {
        /// A G.711 packet (its sequence number orders the jitter buffer; RTCP counts it).
        case audio(RTPPacket)
        /// A telephone-event packet; `digit` when it starts a new key press.
        case event(digit: Character?)
        case dropped(reason: String)
    }

    let codec: SIPAudioCodec
    let audioPayloadType: UInt8
    let telephoneEventPayloadType: UInt8?
    private var dtmf = DTMFReceiver()

    init(codec: SIPAudioCodec, audioPayloadType: UInt8, telephoneEventPayloadType: UInt8?) {
        self.codec = codec
        self.audioPayloadType = audioPayloadType
        self.telephoneEventPayloadType = telephoneEventPayloadType
    }

    mutating func receive(_ datagram: ArraySlice<UInt8>) -> Outcome {
        guard let packet = try? RTPPacket(parsing: datagram) else { return .dropped(reason: "not RTP") }
        if packet.payloadType == audioPayloadType {
            guard !packet.payload.isEmpty else { return .dropped(reason: "empty audio payload") }
            return .audio(packet)
        }
        if let telephoneEventPayloadType, packet.payloadType == telephoneEventPayloadType {
            guard (try? TelephoneEvent(parsing: packet.payload)) != nil else { return .dropped(reason: "malformed telephone-event") }
            return .event(digit: dtmf.receive(packet)?.key)
        }
        return .dropped(reason: "payload type \(packet.payloadType) not negotiated")
    }

    /// The linear 8 kHz samples of one audio payload.
    func decode(_ payload: [UInt8]) -> [Int16] {
        codec == .pcmu ? G711.muLaw(decoding: payload) : G711.aLaw(decoding: payload)
    }
}
