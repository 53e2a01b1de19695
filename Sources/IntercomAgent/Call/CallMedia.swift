import CallCore
import ParseWire

/// The media of one peer in a call: the WebRTC session that `startMedia` asks for. SDP and ICE candidates
/// travel through `signal` and `remote(_:)`; the call logic only hears what `state` reports.
public protocol CallMediaSession: Sendable {
    /// Starts negotiating: sends the offer when `plan.negotiation == .sendOffer`, else answers the offer
    /// among `early`, the peer's signals that arrived before the session existed (the room kept them), which
    /// are applied in order. Later signals come through `remote(_:)`.
    func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
               signal: @escaping @Sendable (SignalPayload) async -> Void,
               state: @escaping @Sendable (MediaState) -> Void) async throws
    /// An answer or candidate from the peer, after `start` returned.
    func remote(_ payload: SignalPayload) async
    func stop() async
    /// How long the peer spoke so far, from the levels its audio packets carried (RFC 6464); nil when they
    /// carried none. Read after `stop()` for the visitor log.
    var peerSpokeSeconds: Double? { get }
    /// The host's addresses changed: gather again and re-negotiate the transport (an ICE restart) so the call
    /// survives; the media and its encoders carry on. A no-op where there is no transport to restart.
    func restartTransport(reason: String) async
}

extension CallMediaSession {
    public var peerSpokeSeconds: Double? { nil }
    public func restartTransport(reason: String) async {}
}

/// What a media session reports about its connection.
public enum MediaState: Equatable, Sendable {
    /// Connected (ICE and DTLS); media can flow.
    case up
    /// Lost or closed, with no more precise cause.
    case down
    /// Failed for a known reason (ICE or DTLS).
    case failed(CallFailureReason)
}

/// Makes the media session for one peer of one call.
public protocol CallMediaFactory: Sendable {
    func makeSession(sessionID: String, peer: String) -> any CallMediaSession
    /// Whether any call needs media now: true from the moment a call rings (in or out) until its last
    /// media session stopped, so the camera and encoders start during the ring and stop when it is over.
    func callsNeedMedia(_ needed: Bool)
}

extension CallMediaFactory {
    /// Media that costs nothing while unused (scripted sessions in tests) need not hear it.
    public func callsNeedMedia(_ needed: Bool) {}
}

/// Media whose camera the caller can switch (issue #22 "Switch camera"): the device advertises `cameras`
/// when a call's media is up and films the one the caller asks for.
public protocol CameraSwitching: Sendable {
    /// The cameras' names (the default first) and the one filmed now.
    var cameras: (names: [String], active: String) { get }
    func switchCamera(to name: String) throws(CameraSwitchError)
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
