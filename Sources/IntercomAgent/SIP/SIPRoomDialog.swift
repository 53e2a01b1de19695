import CallCore
import SIPTransport

/// A SIP call standing in for a signaling room (issue #18): an INVITE the device received
/// (`SIPIncomingDialog`) or one the call button sent (`SIPOutgoingDialog`). It exists before the coordinator
/// joins it, hears the SIP thread's events for its Call-ID, and makes the call's media session.
protocol SIPRoomDialog: RoomConnection {
    /// The INVITE's Call-ID.
    var callID: String { get }
    /// The room's name for the coordinator: `sip:<Call-ID>` (a backend session ID never holds a colon).
    var sessionID: String { get }
    func mediaSession() -> any CallMediaSession
    /// What the SIP thread reported for this call.
    func sipEvent(_ event: SIPCallEvent) async
}

extension SIPRoomDialog {
    /// The other party in the room's vocabulary: a SIP call has exactly one.
    static var peerID: String { "sip" }

    static func sessionID(callID: String) -> String { "sip:" + callID }
}
