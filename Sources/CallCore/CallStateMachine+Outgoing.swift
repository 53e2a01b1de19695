extension CallStateMachine {
    /// The call button when idle: ask for a row to the configured target and wait for it.
    mutating func dial(at now: CallInstant, into actions: inout [CallAction]) {
        guard let target = policy.callTarget else { return }
        let request = nextOutgoingRequest
        nextOutgoingRequest += 1
        actions.append(.createOutgoingCall(request: request, target: target))
        restCallButton(from: now)
        timers.arm(.ringTimeout, at: now + policy.ringTimeout, into: &actions)
        state = .dialing(CallContext(outgoing: target, request: request, at: now))
    }

    /// Our row exists: join its room. A row for a call we already gave up on is deleted instead.
    mutating func outgoingCallCreated(
        request: UInt64, rowID: String, sessionID: String, into actions: inout [CallAction]
    ) {
        if case .dialing(var context) = state, context.outgoingRequest == request {
            guard context.sessionID == nil else { return }  // a repeated report
            context.rowID = rowID
            context.sessionID = sessionID
            actions.append(.joinSession(sessionID: sessionID, role: .subscriber))
            state = .dialing(context)
        } else if state.context?.outgoingRequest != request || state.context?.rowID != rowID {
            actions.append(.deleteCallRow(rowID: rowID))
        }
    }

    /// Our row could not be created: the attempt ends (a late failure for an abandoned attempt is ignored).
    mutating func outgoingCallFailed(
        request: UInt64, reason: String, at now: CallInstant, into actions: inout [CallAction]
    ) {
        guard case .dialing(let context) = state, context.outgoingRequest == request, context.sessionID == nil
        else { return }
        finish(context, .unanswered(.createFailed(reason)), bye: nil, at: now, into: &actions)
    }
}
