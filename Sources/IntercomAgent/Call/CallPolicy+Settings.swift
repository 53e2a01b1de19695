import CallCore
import IntercomConfig

extension CallPolicy {
    /// The machine's policy from the `[call]` settings.
    public static func from(_ settings: CallSettings) -> CallPolicy {
        let answerMode: AnswerMode = switch settings.answer {
        case .auto: .auto
        case .button: .button
        case .autoAfter: .autoAfter(settings.autoAnswerDelay)
        }
        var quietHours: QuietHours?
        if let quiet = settings.quietHours,
           let start = try? MinuteOfDay(minutesSinceMidnight: quiet.startMinute),
           let end = try? MinuteOfDay(minutesSinceMidnight: quiet.endMinute) {
            quietHours = QuietHours(start: start, end: end, answerMode: .button, rejectsCalls: quiet.answer == .reject)
        }
        let target: CallTarget? = switch settings.target {
        case .user(let id)?: .user(id: id)
        case .nearest(let title, let kilometres)?: .nearest(title: title, radiusMeters: kilometres * 1000)
        case .sip(let uri)?: .sip(uri: uri)
        case nil: nil
        }
        return CallPolicy(
            answerMode: answerMode, ringTimeout: settings.ringTimeout, maxDuration: settings.maxDuration,
            mediaTimeout: settings.mediaTimeout, allowCallers: Set(settings.allowCallers), quietHours: quietHours,
            busyBehaviour: settings.busy == .reject ? .reject : .ignore, maxViewers: settings.maxViewers,
            allowDoorOpen: settings.allowDoorOpen, callTarget: target, doNotDisturbLimit: settings.doNotDisturbLimit,
            callButtonCooldown: settings.callButtonCooldown, replies: settings.replies,
            repliesWhenMissed: settings.replyWhenMissed)
    }
}
