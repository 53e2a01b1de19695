import CallCore
import Foundation
import IntercomConfig
import Logging
import Media
import ParseClient
import ParseWire

/// The visitor log (issue #19): a snapshot when a call rings, a `CallLog` row when it ends.
///
/// Nothing here is on the call's path: `ringStarted` and `callEnded` only start tasks. The snapshot task
/// waits for the encoder's next frame, encodes it on its own thread and uploads it as a Parse File; the
/// row waits for that task, so a slow upload delays the row, never the call. A failed snapshot is logged
/// once (until one succeeds again) and counted; the row is then written without a picture.
public actor VisitorLog {
    /// The camera's next frame, or nil after the timeout (`MediaService.snapshotFrame`).
    public typealias FrameSource = @Sendable (_ timeout: Duration) async -> I420Frame?

    private let session: BackendSession
    private let frames: FrameSource?
    private let settings: VisitSettings
    private let metrics: AgentMetrics?
    private let logger: Logger
    /// Hears every snapshot's JPEG as soon as it is encoded (the MQTT image entity).
    private let onJPEG: (@Sendable ([UInt8]) -> Void)?
    private var snapshots: [UInt64: Task<ParseFile?, Never>] = [:]
    private var snapshotFailing = false
    private var pendingWrites: [UInt64: Task<Void, Never>] = [:]
    private var nextWrite: UInt64 = 0
    /// How long a ring waits for a frame: the camera may be opening (media starts with the ring).
    static let frameTimeout: Duration = .seconds(5)

    public init(session: BackendSession, frames: FrameSource?, settings: VisitSettings, metrics: AgentMetrics?,
                logger: Logger, onJPEG: (@Sendable ([UInt8]) -> Void)? = nil) {
        self.onJPEG = onJPEG
        self.session = session
        self.frames = frames
        self.settings = settings
        self.metrics = metrics
        self.logger = logger
    }

    /// A call (`ticket`) started ringing, either way: take its snapshot in the background.
    public func ringStarted(_ ticket: UInt64) {
        guard settings.snapshot, let frames else { return }
        let quality = settings.snapshotQuality
        let client = session.client
        let onJPEG = self.onJPEG
        snapshots[ticket] = Task {
            let started = ContinuousClock.now
            do throws(SnapshotError) {
                let file = try await Self.snapshot(frames: frames, quality: quality, client: client, onJPEG: onJPEG)
                self.snapshotSucceeded(after: ContinuousClock.now - started)
                return file
            } catch {
                self.snapshotFailed(error)
                return nil
            }
        }
    }

    /// The call `ticket` ended (`ticket` nil: a call that never rang here, e.g. refused as busy): write its
    /// row once its snapshot is settled. `callerSpokeSeconds`: what its media measured, if anything.
    public func callEnded(_ summary: CallSummary, ticket: UInt64?, callerSpokeSeconds: Double? = nil) {
        let snapshot = ticket.flatMap { snapshots.removeValue(forKey: $0) }
        guard settings.log else { return }
        let end = Date()
        let (session, owners, logger) = (self.session, settings.owners, self.logger)
        nextWrite += 1
        let key = nextWrite
        pendingWrites[key] = Task {
            let file = await snapshot?.value
            do throws(ParseClientError) {
                let deviceID = try await session.ensureLoggedIn()
                let row = CallLogEntry.row(summary, endedAt: end, deviceID: deviceID, owners: owners, snapshot: file,
                                           callerSpokeSeconds: callerSpokeSeconds)
                _ = try await session.client.send(CreateResponse.self) { $0.createCallLog(row, requestId: $1) }
            } catch {
                logger.warning("could not write the visitor log row", metadata: ["error": "\(error)"])
            }
            self.writeDone(key)
        }
    }

    /// Waits for every snapshot and row under way (tests, and a graceful stop).
    public func settle() async {
        for task in Array(snapshots.values) { _ = await task.value }
        for task in Array(pendingWrites.values) { await task.value }
    }

    /// `settle()`, but no longer than `limit` (shutdown: systemd and the user wait). True when everything
    /// under way finished; on false the rest is abandoned (the process is about to exit).
    public func settle(within limit: Duration) async -> Bool {
        // A task group would wait for its slow child on exit; two unstructured tasks race instead.
        let (finished, sink) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(2))
        let waiter = Task { await self.settle(); sink.yield(true) }
        let timer = Task { try? await Task.sleep(for: limit); sink.yield(false) }
        var first = finished.makeAsyncIterator()
        let settled = await first.next() ?? false
        timer.cancel()
        if !settled { waiter.cancel() }
        sink.finish()
        return settled
    }

    /// Snapshots and rows still under way.
    public var pending: Int { snapshots.count + pendingWrites.count }

    private func writeDone(_ key: UInt64) { pendingWrites[key] = nil }

    private func snapshotSucceeded(after elapsed: Duration) {
        metrics?.snapshotUploaded(after: elapsed)
        if snapshotFailing { logger.notice("snapshots upload again") }
        snapshotFailing = false
    }

    private func snapshotFailed(_ error: SnapshotError) {
        metrics?.snapshotFailed()
        if snapshotFailing {
            logger.debug("snapshot failed again", metadata: ["error": "\(error)"])
        } else {
            logger.warning("snapshot failed; calls are logged without a picture until one works",
                           metadata: ["error": "\(error)"])
        }
        snapshotFailing = true
    }

    private static func snapshot(frames: FrameSource, quality: Int, client: ParseRESTClient,
                                 onJPEG: (@Sendable ([UInt8]) -> Void)?) async throws(SnapshotError) -> ParseFile
    {
        guard let frame = await frames(frameTimeout) else { throw .noFrame(within: frameTimeout) }
        let jpeg: [UInt8]
        do { jpeg = try await SnapshotJPEG.encode(frame, quality: quality) } catch { throw .encode(error) }
        onJPEG?(jpeg)
        do {
            return try await client.send(ParseFile.self) { $0.uploadJPEG(name: "ring.jpg", bytes: jpeg, requestId: $1) }
        } catch {
            throw .upload(error)
        }
    }
}
