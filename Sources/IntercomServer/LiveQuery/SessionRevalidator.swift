import Logging

/// Re-checks, every `interval`, the `_Session` rows LiveQuery sockets and subscriptions run on, and ends
/// those whose session was logged out, deleted or has expired (issue #14, 2: checking only at connect and
/// subscribe kept delivering call rows, tokens included, after logout). One indexed query per tick.
struct SessionRevalidator: Sendable {
    /// Well inside the 1 s the issue allows between a logout and the last event.
    static let interval: Duration = .milliseconds(400)

    let hub: LiveQueryHub
    let database: ServerDatabase
    let clock: ServerClock
    let logger: Logger

    /// One pass; returns how many sockets and subscriptions were ended.
    @discardableResult
    func revalidate() async -> Int {
        let inUse = await hub.sessionIdsInUse()
        guard !inUse.isEmpty else { return 0 }
        let now = clock.milliseconds
        do {
            let alive = try await database.read { db in
                var alive: Set<String> = []
                let ids = Array(inUse)
                for start in stride(from: 0, to: ids.count, by: 500) {
                    let chunk = Array(ids[start..<min(start + 500, ids.count)])
                    let marks = chunk.map { _ in "?" }.joined(separator: ",")
                    let rows = try db.values(String.self, #"SELECT objectId FROM "_Session" WHERE expiresAt > ? AND objectId IN ("# + marks + ")",
                        SQLArguments([now.sqlValue] + chunk.map(\.sqlValue)))
                    alive.formUnion(rows)
                }
                return alive
            }
            return await hub.endSessions(inUse.subtracting(alive))
        } catch {
            logger.error("LiveQuery session revalidation failed", metadata: ["error": "\(error)"])
            return 0
        }
    }

    func run() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.interval)
            await revalidate()
        }
    }
}
