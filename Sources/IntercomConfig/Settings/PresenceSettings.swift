/// `[presence]`: how often the device re-saves its `ActiveUsers` row.
public struct PresenceSettings: Sendable, Equatable {
    public var heartbeat: Duration

    init(_ reader: ConfigReader?) {
        heartbeat = reader?.duration("heartbeat", in: .seconds(5)...(.seconds(3600))) ?? .seconds(60)
        reader?.rejectUnknownKeys()
    }
}
