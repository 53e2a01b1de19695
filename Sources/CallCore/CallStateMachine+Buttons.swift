extension CallStateMachine {
    /// The physical buttons. A press that means nothing in the current state is ignored.
    mutating func press(_ button: ButtonEvent, at now: CallInstant, into actions: inout [CallAction]) {
        switch (button, state) {
        case (.acceptPress, .ringing(let context)):
            answer(context, at: now, into: &actions)
        case (.acceptLongPress, _):
            toggleDoNotDisturb(at: now, into: &actions)
        case (.hangupPress, .ringing(let context)):
            finish(context, .unanswered(.hangupButton), bye: .declined, at: now, into: &actions)
        case (.hangupPress, .dialing(let context)), (.hangupPress, .ringingRemote(let context)):
            finish(context, .unanswered(.cancelled), bye: .hangup, at: now, into: &actions)
        case (.hangupPress, .connecting(let context)), (.hangupPress, .inCall(let context)):
            finish(context, context.outcomeAfterAnswer(.localHangup), bye: .hangup, at: now, into: &actions)
        case (.callPress, .idle):
            if let readyAt = callButtonReadyAt, now < readyAt { return }  // cooling down after its last call
            dial(at: now, into: &actions)
        case (.callPress, .inCall(let context)):
            guard let sessionID = context.sessionID else { return }
            actions.append(.nextCamera(sessionID: sessionID, to: context.partner))
        case (.replyPress, .inCall(let context)):
            guard let sessionID = context.sessionID else { return }
            repliesSent += 1
            actions.append(.sendSignal(sessionID: sessionID, to: context.partner,
                                       .text(id: "reply-\(repliesSent)", text: policy.firstReply)))
        case (.acceptStuck(let afterLongPress), _):
            acceptUnusable = true
            // The long press came from the same stuck hold: nobody asked for that do-not-disturb change.
            if afterLongPress { toggleDoNotDisturb(at: now, into: &actions) }
        case (.acceptChattering, _):
            acceptUnusable = true
        case (.acceptWorks, _):
            acceptUnusable = false
        case (.controlsUnavailable, _):
            controlsUnavailable = true
            settle()
        case (.controlsAvailable, _):
            controlsUnavailable = false
            settle()
        case (.acceptPress, _), (.hangupPress, _), (.callPress, _), (.replyPress, _):
            break
        }
    }

    /// Do-not-disturb on (for at most `doNotDisturbLimit`, declining a ringing call) or off.
    mutating func toggleDoNotDisturb(at now: CallInstant, into actions: inout [CallAction]) {
        doNotDisturb.toggle()
        timers.cancel(.doNotDisturbExpiry, into: &actions)
        guard doNotDisturb else { return }
        timers.arm(.doNotDisturbExpiry, at: now + policy.doNotDisturbLimit, into: &actions)
        if case .ringing(let context) = state {
            finish(context, .unanswered(.doNotDisturb), bye: .busy, at: now, into: &actions)
        }
    }

    /// Do-not-disturb reached `doNotDisturbLimit`: it switches itself off (the status line says so).
    mutating func doNotDisturbExpired() {
        doNotDisturb = false
    }

    /// The call button placed a call at `now`, or one it placed ended: it rests for `callButtonCooldown`.
    mutating func restCallButton(from now: CallInstant) {
        callButtonReadyAt = max(callButtonReadyAt ?? now, now + policy.callButtonCooldown)
    }
}
