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
    /// Nothing comes back: the device's camera (and, with `audio`, its microphone) go out one way, to a
    /// player that has no camera or voice of its own (a WHEP client, docs/whep.md).
    public var sendOnly: Bool

    public init(video: Bool, audio: Bool, negotiation: Negotiation, viewOnly: Bool = false, sendOnly: Bool = false) {
        self.video = video
        self.audio = audio
        self.negotiation = negotiation
        self.viewOnly = viewOnly
        self.sendOnly = sendOnly
    }

    /// What a viewer gets: the device's video, nothing else, offered by the device.
    public static let viewer = MediaPlan(video: true, audio: false, negotiation: .sendOffer, viewOnly: true)

    /// What a WHEP player gets (docs/whep.md): the device's video and microphone, one way, answering the
    /// player's offer.
    public static let player = MediaPlan(video: true, audio: true, negotiation: .answerReceivedOffer, viewOnly: true,
                                         sendOnly: true)
}
