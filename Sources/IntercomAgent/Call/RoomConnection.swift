import ParseClient
import ParseWire

/// What the coordinator talks to for one call's room: the backend's signaling socket (SYSTEM.md §4), or a
/// SIP dialog that plays the same part (issue #18). Its events use the signaling vocabulary, so a SIP call
/// goes through the same machine, policies, LEDs and door relay as a WebRTC one.
protocol RoomConnection: Sendable {
    var events: AsyncStream<SignalingConnection.Event> { get }
    func start() async
    func send(_ data: SignalPayload, to peerId: String) async
    func close() async
    /// The host's addresses changed: reconnect now if the connection is bound to one.
    func reconnectNow() async
}

extension SignalingConnection: RoomConnection {}
