import Foundation
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle

/// Incoming calls (SYSTEM.md §3): LiveQuery on `ActiveSessions where receiverID == me`, plus a poll of the
/// same query (every 8 s with jitter while LiveQuery is down, every 60 s while it is up). Every row reaches
/// `calls` exactly once however often it is seen (`CallRowDeduplicator`), and each delivered row is deleted
/// so it never rings twice. Whether a row is too old to ring is the call machine's judgement, not the intake's.
public struct CallIntakeService: Service {
    let session: BackendSession
    let liveQueryURL: String
    let applicationId: String
    let clientKey: String?
    let installationId: String
    let schedule: PollSchedule
    let status: AgentStatusBoard?
    let logger: Logger
    let sink: AsyncStream<ActiveSessionRow>.Continuation
    /// Delivered rows, in arrival order.
    public let calls: AsyncStream<ActiveSessionRow>

    public init(session: BackendSession, liveQueryURL: String, applicationId: String, clientKey: String?,
                installationId: String, schedule: PollSchedule = PollSchedule(), status: AgentStatusBoard?,
                logger: Logger) {
        self.session = session
        self.liveQueryURL = liveQueryURL
        self.applicationId = applicationId
        self.clientKey = clientKey
        self.installationId = installationId
        self.schedule = schedule
        self.status = status
        self.logger = logger
        // Bounded: calls nobody takes within a ring time are stale anyway.
        (calls, sink) = AsyncStream<ActiveSessionRow>.makeStream(bufferingPolicy: .bufferingNewest(16))
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown { await intake() }
        sink.finish()
    }

    private func intake() async {
        guard let userID = await loggedInUser() else { return }
        let intake = IntakeLedger()
        let token = await session.client.sessionToken
        let liveQuery = LiveQueryConnection(
            url: liveQueryURL,
            configuration: LiveQueryClient.Configuration(applicationId: applicationId, clientKey: clientKey,
                                                         sessionToken: token, installationId: installationId),
            subscriptions: [.incomingCalls(receiverID: userID)], trust: session.trust, logger: logger)
        await session.onTokenChange { token in await liveQuery.sessionTokenChanged(token) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await liveQuery.run() }
            group.addTask {
                for await event in liveQuery.events {
                    switch event {
                    case .link(let up):
                        await intake.setLiveQueryUp(up)
                        await status?.setLiveQueryUp(up)
                        logger.info(up ? "LiveQuery subscribed" : "LiveQuery down; polling every ~8 s")
                    case .row(let row, _):
                        await accept(row, via: "LiveQuery", intake)
                    case .rowGone, .stopped:
                        continue
                    }
                }
            }
            group.addTask { await poll(userID: userID, intake) }
            await group.waitForAll()
        }
    }

    private func loggedInUser() async -> String? {
        while !Task.isCancelled {
            if let userID = try? await session.ensureLoggedIn() { return userID }
            try? await Task.sleep(for: .seconds(2))
        }
        return nil
    }

    private func poll(userID: String, _ intake: IntakeLedger) async {
        var random = SystemRandomNumberGenerator()
        while !Task.isCancelled {
            let delay = schedule.nextDelay(liveQueryUp: await intake.liveQueryUp, using: &random)
            // Wake early when LiveQuery goes down, so a call does not wait out the 60 s safety interval.
            await intake.sleep(seconds: delay)
            if Task.isCancelled { return }
            do {
                let found = try await session.client.send(QueryResults<ActiveSessionRow>.self) { builder, id in
                    builder.incomingCalls(receiverID: userID, requestId: id)
                }
                for row in found.results { await accept(row, via: "poll", intake) }
            } catch {
                logger.debug("call poll failed", metadata: ["error": "\(error)"])
            }
        }
    }

    private func accept(_ row: ActiveSessionRow, via source: String, _ intake: IntakeLedger) async {
        guard await intake.admit(row) else { return }
        do throws(ParseClientError) {
            guard try await session.deleteCallRow(row.objectId) else {
                // The caller cancelled (or another intake path deleted it first): still one delivery at most.
                logger.info("call row vanished before it was taken", metadata: ["row": "\(row.objectId)"])
                return
            }
        } catch {
            logger.warning("could not delete a call row", metadata: ["row": "\(row.objectId)", "error": "\(error)"])
        }
        await status?.countCall()
        logger.info("incoming call", metadata: [
            "from": "\(row.callerTitle ?? row.callerID)", "session": "\(row.sessionID ?? "-")", "via": "\(source)",
        ])
        sink.yield(row)
    }
}

/// The intake's shared state: which rows were already taken, and whether LiveQuery is up (with a wake-up
/// for the poller when it goes down).
actor IntakeLedger {
    private var deduplicator = CallRowDeduplicator()
    private(set) var liveQueryUp = false
    private var sleeper: CheckedContinuation<Void, Never>?
    /// A wake-up that came while nobody slept: the next sleep returns at once (an early poll is harmless).
    private var wakePending = false

    func admit(_ row: ActiveSessionRow) -> Bool {
        deduplicator.admit(row, now: Date()) == .deliver
    }

    func setLiveQueryUp(_ up: Bool) {
        liveQueryUp = up
        if !up { wake() }
    }

    /// Sleeps `seconds`, or less if LiveQuery goes down meanwhile, or until cancelled.
    func sleep(seconds: Double) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            await self?.wake()
        }
        await withTaskCancellationHandler {
            guard !wakePending, !Task.isCancelled else {
                wakePending = false
                return
            }
            await withCheckedContinuation { sleeper = $0 }
        } onCancel: {
            Task { await self.wake() }
        }
        timer.cancel()
    }

    private func wake() {
        guard let sleeper else {
            wakePending = true
            return
        }
        sleeper.resume()
        self.sleeper = nil
    }
}
