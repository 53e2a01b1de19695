import CallCore
import IntercomConfig

extension CallPolicy {
    /// The machine's policy from the `[call]` settings. A quiet-hours `answer = "reject"` has no machine
    /// equivalent yet and is returned in `unsupported` (the runtime logs it); it answers by button meanwhile.
    public static func from(_ settings: CallSettings) -> (policy: CallPolicy, unsupported: [String]) {
        var unsupported: [String] = []
        let answerMode: AnswerMode = switch settings.answer {
        case .auto: .auto
        case .button: .button
        case .autoAfter: .autoAfter(settings.autoAnswerDelay)
        }
        var quietHours: QuietHours?
        if let quiet = settings.quietHours,
           let start = try? MinuteOfDay(minutesSinceMidnight: quiet.startMinute),
           let end = try? MinuteOfDay(minutesSinceMidnight: quiet.endMinute) {
            if quiet.answer == .reject { unsupported.append("call.quiet_hours.answer = \"reject\" (answered by button)") }
            quietHours = QuietHours(start: start, end: end, answerMode: .button)
        }
        let target: CallTarget? = switch settings.target {
        case .user(let id)?: .user(id: id)
        case .nearest(let title, let kilometres)?: .nearest(title: title, radiusMeters: kilometres * 1000)
        case nil: nil
        }
        let policy = CallPolicy(
            answerMode: answerMode, ringTimeout: settings.ringTimeout, maxDuration: settings.maxDuration,
            mediaTimeout: settings.mediaTimeout, allowCallers: Set(settings.allowCallers), quietHours: quietHours,
            busyBehaviour: settings.busy == .reject ? .reject : .ignore, maxViewers: settings.maxViewers,
            allowDoorOpen: settings.allowDoorOpen, callTarget: target)
        return (policy, unsupported)
    }
}
