extension CallStateMachine {
    /// Handles every armed timer whose deadline is at or before `now`, earliest first, as if it had fired at
    /// its deadline. Stops at `event`'s own timer, which `apply` handles. Each is cancelled with the IO layer,
    /// whose late `timerFired` is then stale.
    mutating func expireDueTimers(at now: CallInstant, before event: CallEvent, into actions: inout [CallAction]) {
        var firing: CallTimer?
        if case .timerFired(let timer) = event { firing = timer }
        while let due = timers.earliestDue(at: now), due != firing {
            let deadline = timers.deadline(of: due) ?? now
            _ = timers.consume(due)
            actions.append(.cancelTimer(due))
            timerExpired(due.kind, at: deadline, into: &actions)
        }
    }

    /// A live timer ran out. Timers are cancelled whenever their phase ends, so each kind only meets the
    /// states it was armed in.
    mutating func timerExpired(_ kind: CallTimerKind, at now: CallInstant, into actions: inout [CallAction]) {
        switch (kind, state) {
        case (.ringTimeout, .ringing(let context)):
            if policy.repliesWhenMissed, let sessionID = context.sessionID {
                // Before the bye, in the same room: the caller's page shows it under "no answer".
                actions.append(.sendSignal(sessionID: sessionID, to: context.partner, .text(id: "missed-reply", text: policy.firstReply)))
            }
            finish(context, .unanswered(.ringTimeout), bye: .timeout, at: now, into: &actions)
        case (.ringTimeout, .dialing(let context)),
            (.ringTimeout, .ringingRemote(let context)):
            finish(context, .unanswered(.ringTimeout), bye: .timeout, at: now, into: &actions)
        case (.rowExpiry, .ringing(let context)):
            finish(context, .unanswered(.expired), bye: .timeout, at: now, into: &actions)
        case (.autoAnswer, .ringing(let context)):
            answer(context, at: now, into: &actions)
        case (.mediaTimeout, .connecting(let context)), (.mediaTimeout, .inCall(let context)):
            finish(context, context.outcomeAfterAnswer(.mediaTimeout), bye: .timeout, at: now, into: &actions)
        case (.maxDuration, .connecting(let context)), (.maxDuration, .inCall(let context)):
            finish(context, context.outcomeAfterAnswer(.maxDuration), bye: .timeout, at: now, into: &actions)
        case (.teardown, .ending):
            state = restingState
        case (.doNotDisturbExpiry, _):
            doNotDisturbExpired()
        default:
            break
        }
    }
}
