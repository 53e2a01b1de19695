/// The call policy from the device config (SYSTEM.md §6). The agent fills it; the machine only reads it.
///
/// The machine does not validate it: the config layer rejects negative durations and similar mistakes.
/// Durations are measured on the monotonic clock from the moment the relevant phase starts.
public struct CallPolicy: Equatable, Sendable {
    /// How a ringing call is answered outside quiet hours.
    public var answerMode: AnswerMode
    /// How long an unanswered call may ring (incoming and outgoing); it then ends with `bye "timeout"`.
    public var ringTimeout: Duration
    /// Longest call, counted from the answer; it then ends with `bye "timeout"`.
    public var maxDuration: Duration
    /// Longest time without media: from the answer until media is first up, and later from any media-down
    /// until media is back. The call then ends with `bye "timeout"`.
    public var mediaTimeout: Duration
    /// How long `ending` waits for the media layer to report media down after `stopMedia`.
    public var teardownTimeout: Duration
    /// Callers allowed to ring this device, matched exactly against `callerID` or `callerTitle`.
    /// Empty means anyone. Titles are chosen by the caller, so only user IDs are a real access control.
    public var allowCallers: Set<String>
    /// A daily window with its own answer mode, or `nil` for none.
    public var quietHours: QuietHours?
    /// What to do with a second call while ringing or in a call.
    public var busyBehaviour: BusyBehaviour
    /// View-only peers admitted to a call besides the call partner (`call.max_viewers`).
    public var maxViewers: Int
    /// Whether the call partner may ask the device to pulse its door relay while in a call.
    public var allowDoorOpen: Bool
    /// Whom the call button calls; `nil` disables the call button.
    public var callTarget: CallTarget?
    /// The longest do-not-disturb lasts (from the long press that switched it on); then it switches itself
    /// off, so a press nobody remembers cannot refuse calls forever.
    public var doNotDisturbLimit: Duration
    /// After the call button placed a call, further presses are ignored until this long after that call
    /// began and after it ended, so a stuck or chattering call button cannot dial on and on.
    public var callButtonCooldown: Duration
    /// Canned text replies (`[call] replies`); the reply button sends the first (issue #22).
    public var replies: [String]
    /// Whether an incoming call that rings out unanswered gets the first canned reply before its `bye`
    /// (`[call] reply_when_missed`), so the caller reads something at the door instead of silence.
    public var repliesWhenMissed: Bool
    /// What the reply button sends when no reply is configured.
    public static let defaultReply = "Please wait, someone is coming to the door"

    public init(
        answerMode: AnswerMode = .button,
        ringTimeout: Duration = .seconds(30),
        maxDuration: Duration = .seconds(600),
        mediaTimeout: Duration = .seconds(15),
        teardownTimeout: Duration = .seconds(2),
        allowCallers: Set<String> = [],
        quietHours: QuietHours? = nil,
        busyBehaviour: BusyBehaviour = .reject,
        maxViewers: Int = 2,
        allowDoorOpen: Bool = false,
        callTarget: CallTarget? = nil,
        doNotDisturbLimit: Duration = .seconds(12 * 3_600),
        callButtonCooldown: Duration = .seconds(10),
        replies: [String] = [],
        repliesWhenMissed: Bool = false
    ) {
        self.answerMode = answerMode
        self.ringTimeout = ringTimeout
        self.maxDuration = maxDuration
        self.mediaTimeout = mediaTimeout
        self.teardownTimeout = teardownTimeout
        self.allowCallers = allowCallers
        self.quietHours = quietHours
        self.busyBehaviour = busyBehaviour
        self.maxViewers = maxViewers
        self.allowDoorOpen = allowDoorOpen
        self.callTarget = callTarget
        self.doNotDisturbLimit = doNotDisturbLimit
        self.callButtonCooldown = callButtonCooldown
        self.replies = replies
        self.repliesWhenMissed = repliesWhenMissed
    }

    /// The reply the reply button and a missed call send: the first configured one, else `defaultReply`.
    public var firstReply: String { replies.first ?? Self.defaultReply }

    /// The answer mode in force at the device's local time `time`.
    public func answerMode(at time: MinuteOfDay) -> AnswerMode {
        if let quietHours, quietHours.contains(time) {
            return quietHours.answerMode
        }
        return answerMode
    }

    /// The answer mode at `time` when the accept button cannot answer (its lines are not claimed, it is
    /// stuck or it chatters): `button` becomes `auto`, because a door that can never be answered is worse
    /// than one that answers by itself (docs/configuration.md, "Buttons that cannot answer").
    public func answerModeWithoutAcceptButton(at time: MinuteOfDay) -> AnswerMode {
        let mode = answerMode(at: time)
        return mode == .button ? .auto : mode
    }

    /// Whether quiet hours refuse calls at the device's local time `time`.
    public func rejectsCalls(at time: MinuteOfDay) -> Bool {
        guard let quietHours, quietHours.rejectsCalls else { return false }
        return quietHours.contains(time)
    }

    /// Whether the allow-list lets this caller ring the device.
    public func allows(callerID: String, callerTitle: String) -> Bool {
        allowCallers.isEmpty || allowCallers.contains(callerID) || allowCallers.contains(callerTitle)
    }
}
