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
    /// A view-only watcher of the call (SYSTEM.md §3), not the call partner: its connection coming and going
    /// is not the call's media going up or down, and its first frame is not the call's.
    public var viewOnly: Bool

    public init(video: Bool, audio: Bool, negotiation: Negotiation, viewOnly: Bool = false) {
        self.video = video
        self.audio = audio
        self.negotiation = negotiation
        self.viewOnly = viewOnly
    }

    /// What a viewer gets: the device's video, nothing else, offered by the device.
    public static let viewer = MediaPlan(video: true, audio: false, negotiation: .sendOffer, viewOnly: true)
}
