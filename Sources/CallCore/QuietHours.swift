/// A daily local-time window during which another answer mode applies (e.g. button-only at night), or
/// during which calls are refused outright (`rejectsCalls`: the caller hears busy, as with do-not-disturb).
///
/// The window is half-open, `[start, end)`. When `end` is before `start` it runs across midnight
/// (22:00–07:00 covers 23:30 and 06:59, not 07:00). `start == end` is an empty window.
public struct QuietHours: Equatable, Sendable {
    /// First quiet minute.
    public var start: MinuteOfDay
    /// First minute after the quiet window.
    public var end: MinuteOfDay
    /// The answer mode used while quiet.
    public var answerMode: AnswerMode
    /// Refuse every call inside the window instead of ringing (config `quiet_hours.answer = "reject"`).
    public var rejectsCalls: Bool

    public init(start: MinuteOfDay, end: MinuteOfDay, answerMode: AnswerMode, rejectsCalls: Bool = false) {
        self.start = start
        self.end = end
        self.answerMode = answerMode
        self.rejectsCalls = rejectsCalls
    }

    /// Whether `time` lies inside the window.
    public func contains(_ time: MinuteOfDay) -> Bool {
        if start <= end {
            return start <= time && time < end
        }
        return time >= start || time < end
    }
}
