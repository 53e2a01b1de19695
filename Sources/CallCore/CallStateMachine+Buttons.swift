extension CallStateMachine {
    /// The physical buttons. A press that means nothing in the current state is ignored.
    mutating func press(_ button: ButtonEvent, at now: CallInstant, into actions: inout [CallAction]) {
        switch (button, state) {
        case (.acceptPress, .ringing(let context)):
            answer(context, at: now, into: &actions)
        case (.acceptLongPress, _):
            doNotDisturb.toggle()
            if doNotDisturb, case .ringing(let context) = state {
                finish(context, .unanswered(.doNotDisturb), bye: .busy, at: now, into: &actions)
            }
        case (.hangupPress, .ringing(let context)):
            finish(context, .unanswered(.hangupButton), bye: .declined, at: now, into: &actions)
        case (.hangupPress, .dialing(let context)), (.hangupPress, .ringingRemote(let context)):
            finish(context, .unanswered(.cancelled), bye: .hangup, at: now, into: &actions)
        case (.hangupPress, .connecting(let context)), (.hangupPress, .inCall(let context)):
            finish(context, context.outcomeAfterAnswer(.localHangup), bye: .hangup, at: now, into: &actions)
        case (.callPress, .idle):
            dial(at: now, into: &actions)
        case (.acceptPress, _), (.hangupPress, _), (.callPress, _):
            break
        }
    }
}
