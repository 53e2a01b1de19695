import CallCore
import ParseWire

/// The media of one peer in a call: the WebRTC session that `startMedia` asks for. SDP and ICE candidates
/// travel through `signal` and `remote(_:)`; the call logic only hears `up`/`down` through `state`.
public protocol CallMediaSession: Sendable {
    /// Starts negotiating: sends the offer when `plan.negotiation == .sendOffer`, else answers the offer
    /// already handed to `remote(_:)`.
    func start(plan: MediaPlan, iceServers: [IceServer], signal: @escaping @Sendable (SignalPayload) async -> Void,
               state: @escaping @Sendable (_ up: Bool) async -> Void) async throws
    /// An offer, answer or candidate from the peer.
    func remote(_ payload: SignalPayload) async
    func stop() async
}

/// Makes the media session for one peer of one call.
public protocol CallMediaFactory: Sendable {
    func makeSession(sessionID: String, peer: String) -> any CallMediaSession
}

/// The physical side of a call the coordinator drives: LEDs and the door relay (GPIO when wired).
public protocol CallIndicators: Sendable {
    func show(_ pattern: LEDPattern) async
    func pulseDoor() async
}

/// No LEDs or relay wired: patterns and door pulses are only logged.
public struct NoIndicators: CallIndicators {
    public init() {}
    public func show(_ pattern: LEDPattern) async {}
    public func pulseDoor() async {}
}
