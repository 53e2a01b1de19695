/// What a `startMedia` action asks the media layer to set up.
public struct MediaPlan: Equatable, Sendable {
    /// Which side writes the SDP offer: the side that accepts the call (SYSTEM.md §3).
    public enum Negotiation: Equatable, Sendable {
        /// The device accepted an incoming call: create and send the offer.
        case sendOffer
        /// The callee accepted our outgoing call and sent an offer: answer the offer already received.
        case answerReceivedOffer
    }

    /// Send the device's camera.
    public var video: Bool
    /// Two-way audio.
    public var audio: Bool
    public var negotiation: Negotiation

    public init(video: Bool, audio: Bool, negotiation: Negotiation) {
        self.video = video
        self.audio = audio
        self.negotiation = negotiation
    }
}
