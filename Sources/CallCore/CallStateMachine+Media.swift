extension CallStateMachine {
    /// Media came up: `connecting` becomes `inCall`; in a call, a running media timeout is cancelled.
    mutating func mediaUp(sessionID: String, at now: CallInstant, into actions: inout [CallAction]) {
        switch state {
        case .connecting(var context) where context.sessionID == sessionID && context.mediaStarted:
            context.connectedAt = now
            timers.cancel(.mediaTimeout, into: &actions)
            state = .inCall(context)
        case .inCall(let context) where context.sessionID == sessionID:
            timers.cancel(.mediaTimeout, into: &actions)
        default:
            break
        }
    }

    /// Media went down: in a call, start the media timeout; in `ending`, teardown is complete.
    mutating func mediaDown(sessionID: String, at now: CallInstant, into actions: inout [CallAction]) {
        switch state {
        case .inCall(let context) where context.sessionID == sessionID:
            if !timers.isArmed(.mediaTimeout) {
                timers.arm(.mediaTimeout, at: now + policy.mediaTimeout, into: &actions)
            }
        case .ending(let context) where context.sessionID == sessionID:
            timers.cancelAll(into: &actions)
            state = restingState
        default:
            break  // while connecting, media down is not final: ICE may still succeed; the timeout decides
        }
    }

    /// Remembers why the call's media failed, for the outcome if it never comes up.
    mutating func recordMediaFailure(_ reason: CallFailureReason, sessionID: String) {
        guard var context = state.context, context.sessionID == sessionID, context.connectedAt == nil else { return }
        context.mediaFailure = reason
        state = state.replacing(context)
    }
}
