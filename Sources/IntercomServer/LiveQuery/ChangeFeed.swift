/// The one way a committed write reaches LiveQuery: straight to this instance's hub on SQLite (one
/// instance), or over the PostgreSQL bus on a fleet, whose listener hands it to every instance's hub
/// (this one included, so each event is delivered once per instance, by one path).
enum ChangeFeed: Sendable {
    case local(LiveQueryHub)
    case shared(PostgresBus)

    func publish(_ change: ObjectChange) async {
        guard LiveQueryHub.publishedClasses.contains(change.className) else { return }
        switch self {
        case .local(let hub): await hub.publish(change)
        case .shared(let bus): await bus.publish(change)
        }
    }
}
