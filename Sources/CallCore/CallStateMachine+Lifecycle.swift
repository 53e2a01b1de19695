extension CallStateMachine {
    /// Starts ringing a validated incoming call, or answers it at once in `.auto` mode.
    mutating func ring(_ call: IncomingCall, mode: AnswerMode, at now: CallInstant, into actions: inout [CallAction]) {
        let context = CallContext(incoming: call, at: now)
        actions.append(.joinSession(sessionID: call.sessionID, role: .publisher))
        // SYSTEM.md §3: `ringing` as soon as the device is in the room, in every answer mode (the caller's
        // page shows "ringing" before the offer even when the device answers at once).
        actions.append(.sendSignal(sessionID: call.sessionID, to: nil, .ringing))
        if mode == .auto {
            answer(context, at: now, into: &actions)
            return
        }
        timers.arm(.ringTimeout, at: now + policy.ringTimeout, into: &actions)
        timers.arm(.rowExpiry, at: call.expiresAt, into: &actions)
        if case .autoAfter(let delay) = mode {
            timers.arm(.autoAnswer, at: now + delay, into: &actions)
        }
        state = .ringing(context)
    }

    /// The device accepts an incoming call: it will send the offer once the caller is in the room.
    mutating func answer(_ context: CallContext, at now: CallInstant, into actions: inout [CallAction]) {
        var context = context
        context.answeredAt = now
        beginConnecting(&context, at: now, into: &actions)
    }

    /// The callee of our outgoing call accepted by sending an offer.
    mutating func calleeAccepted(
        _ context: CallContext, peer: String, at now: CallInstant, into actions: inout [CallAction]
    ) {
        var context = context
        context.partner = peer
        context.answeredAt = now
        beginConnecting(&context, at: now, into: &actions)
    }

    private mutating func beginConnecting(
        _ context: inout CallContext, at now: CallInstant, into actions: inout [CallAction]
    ) {
        timers.cancelAll(into: &actions)
        timers.arm(.maxDuration, at: now + policy.maxDuration, into: &actions)
        timers.arm(.mediaTimeout, at: now + policy.mediaTimeout, into: &actions)
        startMediaIfReady(&context, into: &actions)
        state = .connecting(context)
    }

    /// Issues the call's single `startMedia` once it is accepted and the partner is known.
    mutating func startMediaIfReady(_ context: inout CallContext, into actions: inout [CallAction]) {
        guard !context.mediaStarted, context.answeredAt != nil,
            let sessionID = context.sessionID, let partner = context.partner
        else { return }
        let negotiation: MediaPlan.Negotiation =
            context.direction == .incoming ? .sendOffer : .answerReceivedOffer
        let plan = MediaPlan(video: context.wantsVideo, audio: context.wantsAudio, negotiation: negotiation)
        actions.append(.startMedia(sessionID: sessionID, peer: partner, plan))
        context.mediaStarted = true
    }

    /// Ends the current call with its one outcome: optional `bye`, media stop, leave, log, then `ending`
    /// (if media was started) or the resting state.
    mutating func finish(
        _ context: CallContext,
        _ outcome: CallOutcome,
        bye: ByeReason?,
        at now: CallInstant,
        into actions: inout [CallAction]
    ) {
        timers.cancelAll(into: &actions)
        if let sessionID = context.sessionID {
            if let bye {
                actions.append(.sendSignal(sessionID: sessionID, to: context.partner, .bye(bye)))
            }
            if context.mediaStarted {
                actions.append(.stopMedia(sessionID: sessionID))
            }
            actions.append(.leaveSession(sessionID: sessionID))
        }
        if context.direction == .outgoing, !outcome.wasAnswered, let rowID = context.rowID {
            actions.append(.deleteCallRow(rowID: rowID))  // the callee may not have read it yet
        }
        actions.append(.logCallOutcome(CallSummary(context, outcome: outcome, endedAt: now)))
        if context.direction == .outgoing { restCallButton(from: now) }
        if context.mediaStarted {
            timers.arm(.teardown, at: now + policy.teardownTimeout, into: &actions)
            state = .ending(context)
        } else {
            state = restingState
        }
    }

    /// Ends the current call from whatever phase it is in, choosing the outcome by whether it was accepted.
    mutating func abort(
        _ context: CallContext,
        ifAnswered answeredCause: CallEndCause,
        otherwise unansweredCause: UnansweredCause,
        bye: ByeReason?,
        at now: CallInstant,
        into actions: inout [CallAction]
    ) {
        let outcome: CallOutcome =
            context.answeredAt == nil ? .unanswered(unansweredCause) : context.outcomeAfterAnswer(answeredCause)
        finish(context, outcome, bye: bye, at: now, into: &actions)
    }

    /// The agent stops: a call in progress ends with `bye "hangup"` and an outcome (`shutdown`), so the
    /// journal and the visitor log record it like any other call rather than losing it.
    mutating func shutDown(at now: CallInstant, into actions: inout [CallAction]) {
        switch state {
        case .ringing(let context), .dialing(let context), .ringingRemote(let context),
            .connecting(let context), .inCall(let context):
            abort(context, ifAnswered: .shutdown, otherwise: .shutdown, bye: .hangup, at: now, into: &actions)
        case .offline, .idle, .fault, .ending:
            break
        }
    }

    /// A required device failed: a call in progress ends with `bye "error"`; a resting device shows `fault`.
    mutating func deviceFailed(at now: CallInstant, into actions: inout [CallAction]) {
        switch state {
        case .ringing(let context), .dialing(let context), .ringingRemote(let context),
            .connecting(let context), .inCall(let context):
            abort(context, ifAnswered: .deviceFault, otherwise: .deviceFault, bye: .error, at: now, into: &actions)
        case .offline, .idle, .fault, .ending:
            settle()
        }
    }
}
