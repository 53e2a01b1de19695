import Foundation
import IntercomConfig
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle

/// Keeps the device's `ActiveUsers` row (SYSTEM.md §2–§3): upserts it (query `userID == me`, then PUT or
/// POST; stale duplicates left by a crash are deleted), re-saves it every heartbeat, retries an outage
/// with backoff capped at `maxRetryDelay` (so it is back within seconds of the backend, at under one
/// request a second meanwhile), and deletes it on graceful shutdown.
public struct PresenceService: Service {
    public static let maxRetryDelay: Duration = .seconds(8)

    let session: BackendSession
    let fields: @Sendable (_ userID: String) -> ActiveUserFields
    let heartbeat: Duration
    let readiness: ReadinessGate?
    let status: AgentStatusBoard?
    let logger: Logger

    public init(session: BackendSession, heartbeat: Duration, readiness: ReadinessGate?, status: AgentStatusBoard?,
                logger: Logger, fields: @escaping @Sendable (String) -> ActiveUserFields) {
        self.session = session
        self.heartbeat = heartbeat
        self.readiness = readiness
        self.status = status
        self.logger = logger
        self.fields = fields
    }

    /// The row a configured device advertises.
    public static func fields(for configuration: IntercomConfiguration) throws(ParseWireError)
        -> @Sendable (String) -> ActiveUserFields
    {
        let title = configuration.identity.title
        let location = try GeoPoint(latitude: configuration.identity.latitude, longitude: configuration.identity.longitude)
        let answerMode = configuration.call.answer.rawValue
        // `viewers`: the device streams a call to view-only watchers too (call.max_viewers is at least 1), so a
        // caller's page can offer to invite one.
        var capabilities = ["audio", "video", "viewers"]
        if configuration.call.allowDoorOpen, configuration.gpio?.door != nil { capabilities.append("door") }
        let advertised = capabilities
        return { userID in
            ActiveUserFields(userID: userID, userTitle: title, userLocation: location, deviceKind: "intercom",
                             answerMode: answerMode, capabilities: advertised)
        }
    }

    public func run() async throws {
        let objectId = await cancelWhenGracefulShutdown { await keepRegistered() }
        await unregister(objectId)
    }

    /// Publishes how far the backend's clock is from ours, and logs when that crosses the warning line.
    private func noteClockSkew() async {
        guard let skew = await session.client.serverClock.offsetSeconds else { return }
        let wasWarning = await status?.clockSkewSeconds.map { abs($0) > AgentStatusBoard.clockSkewWarning } ?? false
        await status?.setClockSkew(skew)
        let isWarning = abs(skew) > AgentStatusBoard.clockSkewWarning
        if isWarning, !wasWarning {
            let direction = skew > 0 ? "ahead of" : "behind"
            logger.warning("the backend's clock is \(Int(skew.rounded())) s \(direction) this device's; calls are timed on the backend's clock, but check NTP on both")
        } else if !isWarning, wasWarning {
            logger.notice("the device's and the backend's clocks agree again (\(Int(skew.rounded())) s)")
        }
    }

    /// Registers and heartbeats until cancelled (graceful shutdown); returns the row's objectId, if any.
    private func keepRegistered() async -> String? {
        var objectId: String?
        var failures = 0
        while !Task.isCancelled {
            do throws(ParseClientError) {
                objectId = try await register(existing: objectId)
                if failures > 0 { logger.info("registered again after \(failures) failed attempt(s)") }
                failures = 0
                await status?.setRegistered(true)
                await noteClockSkew()
                await readiness?.markReady("backend")
                // The heartbeat is also when an identity that a full disk kept in memory is written again.
                await status?.setStateUnsaved(!(await session.saveIdentityIfUnsaved()))
                try? await Task.sleep(for: heartbeat)
            } catch {
                failures += 1
                await status?.setRegistered(false)
                // READY=1 must not wait for a backend that is down at boot: systemd would kill and restart
                // the agent until its start limit. The status line says "offline" instead.
                await readiness?.markReady("backend")
                if failures == 1 || failures % 10 == 0 {
                    logger.warning("registration failed; retrying", metadata: ["error": "\(error)", "attempt": "\(failures)"])
                }
                if case .server(let parseError) = error, parseError.knownCode == .objectNotFound { objectId = nil }
                try? await Task.sleep(for: Self.retryDelay(failures: failures))
            }
        }
        return objectId
    }

    /// 1, 2, 4, 8, 8… seconds.
    static func retryDelay(failures: Int) -> Duration {
        min(.seconds(1 << min(max(failures - 1, 0), 3)), maxRetryDelay)
    }

    /// One upsert; returns the row's objectId.
    private func register(existing: String?) async throws(ParseClientError) -> String {
        let userID = try await session.ensureLoggedIn()
        let row = fields(userID)
        if let existing {
            do throws(ParseClientError) {
                _ = try await session.client.send(UpdateResponse.self) { builder, id in
                    builder.saveActiveUser(row, existingObjectId: existing, requestId: id)
                }
                return existing
            } catch .server(let error) where error.knownCode == .objectNotFound {
                // Swept while we were away (3 missed heartbeats): create it again below.
            }
        }
        let found = try await session.client.send(QueryResults<ActiveUserRow>.self) { builder, id in
            builder.findOwnActiveUser(userID: userID, requestId: id)
        }
        let plan = ActiveUserUpsert.plan(found)
        for stale in plan.stale {
            _ = try? await session.client.send(EmptyResponse.self) { builder, id in
                builder.deleteActiveUser(objectId: stale, requestId: id)
            }
        }
        if let current = plan.existing {
            _ = try await session.client.send(UpdateResponse.self) { builder, id in
                builder.saveActiveUser(row, existingObjectId: current, requestId: id)
            }
            return current
        }
        let created = try await session.client.send(CreateResponse.self) { builder, id in
            builder.saveActiveUser(row, existingObjectId: nil, requestId: id)
        }
        logger.info("registered", metadata: ["objectId": "\(created.objectId)", "title": "\(row.userTitle)"])
        return created.objectId
    }

    /// Deletes the row on shutdown, bounded so a dead backend cannot hold up the stop.
    private func unregister(_ objectId: String?) async {
        guard let objectId else { return }
        let client = session.client
        let deleted = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                (try? await client.send(EmptyResponse.self) { builder, id in
                    builder.deleteActiveUser(objectId: objectId, requestId: id)
                }) != nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(2))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        logger.info(deleted ? "unregistered" : "could not delete the presence row before stopping")
        await status?.setRegistered(false)
    }
}
