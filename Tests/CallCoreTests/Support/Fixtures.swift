import CallCore

extension CallInstant {
    /// `seconds` after the origin, to the millisecond.
    static func seconds(_ seconds: Double) -> CallInstant {
        CallInstant(sinceBoot: .milliseconds(Int64((seconds * 1000).rounded())))
    }

    /// Seconds since the origin, for scripting relative steps.
    var inSeconds: Double {
        let (whole, attoseconds) = sinceBoot.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// Noon, a time outside every quiet window used in the tests.
// A valid literal: `try!` can only fail if MinuteOfDay itself is broken, which MinuteOfDayTests catch.
let noon = try! MinuteOfDay(hour: 12, minute: 0)

/// A call row from Alice for room `s1`, expiring 60 s after the origin unless told otherwise.
func row(
    _ rowID: String = "r1",
    session: String = "s1",
    callerID: String = "alice",
    title: String = "Alice",
    expiresAt: Double = 60,
    video: Bool = true,
    audio: Bool = true,
    localTime: MinuteOfDay = noon
) -> CallEvent {
    .incomingCall(
        IncomingCall(
            rowID: rowID, sessionID: session, callerID: callerID, callerTitle: title,
            expiresAt: .seconds(expiresAt), wantsVideo: video, wantsAudio: audio),
        localTime: localTime)
}

extension CallEvent {
    static let accept = CallEvent.button(.acceptPress)
    static let longPress = CallEvent.button(.acceptLongPress)
    static let hangup = CallEvent.button(.hangupPress)
    static let call = CallEvent.button(.callPress)

    /// A signal in room `s1`.
    static func remote(_ signal: RemoteSignal, session: String = "s1") -> CallEvent {
        .signal(sessionID: session, signal)
    }

    static let partnerJoins = remote(.peerJoined(peer: "p1"))
    static let mediaUp = CallEvent.mediaUp(sessionID: "s1")
    static let mediaDown = CallEvent.mediaDown(sessionID: "s1")

    static func bye(_ reason: ByeReason = .hangup, from peer: String = "p1") -> CallEvent {
        remote(.bye(from: peer, reason: reason))
    }
}

/// Common openings of a scripted call.
enum Script {
    /// Alice's row at 0 s, Alice in the room at 0.5 s.
    static let ringWithPartner: [Step] = [.send(row(), at: 0), .send(.partnerJoins, at: 0.5)]
    /// … then answered with the accept button at 1 s.
    static let answered: [Step] = ringWithPartner + [.send(.accept, at: 1)]
    /// … then media up at 2 s.
    static let inCall: [Step] = answered + [.send(.mediaUp, at: 2)]
}
