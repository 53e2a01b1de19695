extension CallStateMachine {
    /// Triage of a new call row, in this order: expired, not allowed, busy, fault, do-not-disturb (the
    /// button's, or quiet hours that reject), then ring. Each row arrives here once: exactly-once delivery
    /// and deleting the row are the intake's (`CallRowDeduplicator`); expiry is judged here, on the monotonic
    /// clock the IO layer converted the row's `expiresAt` to.
    ///
    /// The allow-list is checked before busy so a stranger never learns whether the device is in a call.
    /// Do-not-disturb declines with `bye "busy"`: to the caller the device is unavailable, which is true, and
    /// it reveals no deliberate refusal (SIP phones answer DND with 486 Busy Here for the same reason).
    mutating func receive(
        _ call: IncomingCall, localTime: MinuteOfDay, at now: CallInstant, into actions: inout [CallAction]
    ) {
        if let current = state.context, current.sessionID == call.sessionID {
            return  // a second row for the room we are already in: the same call
        }
        if call.expiresAt <= now {
            refuse(call, .expired, bye: nil, at: now, into: &actions)
        } else if !policy.allows(callerID: call.callerID, callerTitle: call.callerTitle) {
            refuse(call, .notAllowed, bye: .declined, at: now, into: &actions)
        } else if state.context != nil {
            let bye: ByeReason? = policy.busyBehaviour == .reject ? .busy : nil
            refuse(call, .busy, bye: bye, at: now, into: &actions)
        } else if !faults.isEmpty {
            refuse(call, .deviceFault, bye: .error, at: now, into: &actions)
        } else if doNotDisturb || policy.rejectsCalls(at: localTime) {
            refuse(call, .doNotDisturb, bye: .busy, at: now, into: &actions)
        } else if controlsUnavailable || acceptUnusable {
            ring(call, mode: policy.answerModeWithoutAcceptButton(at: localTime), at: now, into: &actions)
        } else {
            ring(call, mode: policy.answerMode(at: localTime), at: now, into: &actions)
        }
    }

    /// Refuses a row without ringing: with `bye`, join its room just to say it; always log the outcome.
    private func refuse(
        _ call: IncomingCall,
        _ cause: UnansweredCause,
        bye: ByeReason?,
        at now: CallInstant,
        into actions: inout [CallAction]
    ) {
        if let bye {
            actions.append(.joinSession(sessionID: call.sessionID, role: .publisher))
            actions.append(.sendSignal(sessionID: call.sessionID, to: nil, .bye(bye)))
            actions.append(.leaveSession(sessionID: call.sessionID))
        }
        let context = CallContext(incoming: call, at: now)
        actions.append(.logCallOutcome(CallSummary(context, outcome: .unanswered(cause), endedAt: now)))
    }
}
