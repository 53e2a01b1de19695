/// `[call]`: how the device answers (SYSTEM.md §6).
public struct CallSettings: Sendable, Equatable {
    public enum AnswerMode: String, Sendable, CaseIterable { case auto, button, autoAfter = "auto-after" }
    public enum BusyBehaviour: String, Sendable, CaseIterable { case reject, ignore }
    public enum QuietAnswer: String, Sendable, CaseIterable { case button, reject }

    /// A daily period (local time) with its own answer mode; `end` before `start` spans midnight.
    public struct QuietHours: Sendable, Equatable {
        public var startMinute: Int
        public var endMinute: Int
        public var answer: QuietAnswer
    }

    /// Who the `call` button calls.
    public enum Target: Sendable, Equatable {
        case user(id: String)
        case nearest(title: String, radiusKilometres: Double)
        /// `target = "sip:reception@pbx.example"`: a SIP call through `[sip]`'s registrar (issue #18).
        case sip(uri: String)
    }

    public var answer: AnswerMode = .auto
    public var autoAnswerDelay: Duration = .seconds(5)
    public var ringTimeout: Duration = .seconds(30)
    public var maxDuration: Duration = .seconds(600)
    public var mediaTimeout: Duration = .seconds(15)
    public var allowCallers: [String] = []
    public var maxViewers = 4
    public var busy: BusyBehaviour = .reject
    public var allowDoorOpen = false
    public var quietHours: QuietHours?
    public var target: Target?
    /// Do-not-disturb switches itself off after this long.
    public var doNotDisturbLimit: Duration = .seconds(12 * 3_600)
    /// The call button rests this long after the call it placed began, and after it ended.
    public var callButtonCooldown: Duration = .seconds(10)
    /// Canned text replies the device can send into a call (issue #22): the `reply` button sends the first.
    /// At most `maxReplies`, each 1…`maxReplyScalars` Unicode scalars without control characters but newline.
    public var replies: [String] = []
    /// An incoming call that rings out unanswered gets the first reply before the device gives up on it.
    public var replyWhenMissed = false
    public static let maxReplies = 5
    public static let maxReplyScalars = 500

    init(_ reader: ConfigReader?) {
        guard let reader else { return }
        answer = reader.choice("answer") ?? answer
        autoAnswerDelay = reader.duration("auto_answer_delay", in: .zero...(.seconds(120))) ?? autoAnswerDelay
        ringTimeout = reader.duration("ring_timeout", in: .seconds(5)...(.seconds(600))) ?? ringTimeout
        maxDuration = reader.duration("max_duration", in: .seconds(10)...(.seconds(86_400))) ?? maxDuration
        mediaTimeout = reader.duration("media_timeout", in: .seconds(2)...(.seconds(300))) ?? mediaTimeout
        allowCallers = reader.stringArray("allow_callers") ?? allowCallers
        maxViewers = reader.integer("max_viewers", in: 1...8) ?? maxViewers
        busy = reader.choice("busy") ?? busy
        allowDoorOpen = reader.bool("allow_door_open") ?? allowDoorOpen
        doNotDisturbLimit = reader.duration("do_not_disturb_limit", in: .seconds(60)...(.seconds(7 * 86_400)))
            ?? doNotDisturbLimit
        callButtonCooldown = reader.duration("call_button_cooldown", in: .zero...(.seconds(600))) ?? callButtonCooldown
        replies = Self.replies(reader)
        replyWhenMissed = reader.bool("reply_when_missed") ?? replyWhenMissed
        if answer == .autoAfter, autoAnswerDelay >= ringTimeout {
            reader.report("auto_answer_delay", "must be shorter than call.ring_timeout, or the call rings out first")
        }
        if let quiet = reader.table("quiet_hours") {
            let start = Self.minuteOfDay(quiet, "start")
            let end = Self.minuteOfDay(quiet, "end")
            let mode: QuietAnswer = quiet.choice("answer") ?? .button
            if let start, let end {
                if start == end { quiet.report("end", "must differ from start") }
                quietHours = QuietHours(startMinute: start, endMinute: end, answer: mode)
            }
            quiet.rejectUnknownKeys()
        }
        if reader.isString("target") {
            target = SIPTargetSyntax.target(reader, "target").map { .sip(uri: $0) }
        } else if let targetReader = reader.table("target") {
            let userID = targetReader.text("user_id", maxLength: 100)
            let title = targetReader.text("title", maxLength: 100)
            let radius = targetReader.float("radius_km", in: 0.001...20_000) ?? 1.0
            switch (userID, title) {
            case let (id?, nil): target = .user(id: id)
            case let (nil, title?): target = .nearest(title: title, radiusKilometres: radius)
            case (_?, _?): targetReader.report(nil, "set either user_id or title, not both")
            case (nil, nil):
                if !targetReader.contains("user_id"), !targetReader.contains("title") {
                    targetReader.report(nil, "needs user_id or title")
                }
            }
            targetReader.rejectUnknownKeys()
        }
        reader.rejectUnknownKeys()
    }

    /// `replies`: each one checked, the bad ones reported by index and left out.
    private static func replies(_ reader: ConfigReader) -> [String] {
        guard let all = reader.stringArray("replies") else { return [] }
        if all.count > maxReplies { reader.report("replies", "at most \(maxReplies) replies, got \(all.count)") }
        var kept: [String] = []
        for (index, reply) in all.enumerated() {
            let scalars = reply.unicodeScalars
            if scalars.isEmpty {
                reader.reportElement("replies", index, "is empty")
            } else if scalars.count > maxReplyScalars {
                reader.reportElement("replies", index, "is \(scalars.count) characters; at most \(maxReplyScalars)")
            } else if scalars.contains(where: { $0 != "\n" && $0.properties.generalCategory == .control }) {
                reader.reportElement("replies", index, "holds a control character (only newline is allowed)")
            } else {
                kept.append(reply)
            }
        }
        return kept
    }

    /// `"HH:MM"` → minutes since midnight.
    private static func minuteOfDay(_ reader: ConfigReader, _ key: String) -> Int? {
        guard let text = reader.string(key, required: true) else { return nil }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].count == 2, parts[1].count == 2,
           let hour = Int(parts[0]), let minute = Int(parts[1]), (0...23).contains(hour), (0...59).contains(minute) {
            return hour * 60 + minute
        }
        reader.report(key, "expected a time \"HH:MM\" (00:00 to 23:59), got \"\(text)\"")
        return nil
    }
}
