import Synchronization
import WebRTC

/// A wait that ran out of time: the test fails instead of hanging.
struct ICETestTimeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Runs `body`, failing with `ICETestTimeout` after `limit`. Returns at the deadline even if `body`
/// ignores cancellation (it is cancelled and left behind), so a hang fails the test instead of stalling it.
func withTimeout<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let slot = ContinuationSlot<T>()
    return try await withCheckedThrowingContinuation { continuation in
        slot.store(continuation)
        let work = Task {
            do { slot.resume(with: .success(try await body())) } catch { slot.resume(with: .failure(error)) }
        }
        let timer = Task {
            try await Task.sleep(for: limit)
            work.cancel()
            slot.resume(with: .failure(ICETestTimeout(what: what)))
        }
        slot.onResume { timer.cancel() }
    }
}

/// A continuation resumed at most once, by whichever of `withTimeout`'s two tasks gets there first.
private final class ContinuationSlot<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var cleanup: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func store(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let resumed = state.withLock { state in
            if state.continuation == nil { return true }
            state.cleanup = cleanup
            return false
        }
        if resumed { cleanup() }
    }

    func resume(with result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state in
            defer { state.continuation = nil; state.cleanup = nil }
            return (state.continuation, state.cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}

extension [ICEEvent] {
    var states: [ICEConnectionState] { compactMap { if case .stateChanged(let s) = $0 { s } else { nil } } }
    var localCandidates: [String] { compactMap { if case .localCandidate(let c) = $0 { c } else { nil } } }
    var selectedPairs: [(local: String, remote: String)] {
        compactMap { if case .selectedPair(let l, let r) = $0 { (l, r) } else { nil } }
    }
    var isConnected: Bool { states.last?.isConnected ?? false }
    var gatheringDone: Bool { contains(.gatheringDone) }
}

/// Two agents on 127.0.0.1, one controlling and one controlled, trickling candidates to each other as
/// they are gathered (the way signaling would), with everything each reported kept in a log.
final class ICELoopbackPair: Sendable {
    let controlling: ICEAgent
    let controlled: ICEAgent
    let controllingLog = StreamRecorder<ICEEvent>()
    let controlledLog = StreamRecorder<ICEEvent>()
    /// Candidates the peer rejected while trickling (must stay empty).
    let trickleErrors = Mutex<[ICEError]>([])

    init() async throws {
        controlling = try await ICEAgent(controlling: true, localAddresses: ["127.0.0.1"])
        controlled = try await ICEAgent(controlling: false, localAddresses: ["127.0.0.1"])
        pump(from: controlling, into: controllingLog, peer: controlled)
        pump(from: controlled, into: controlledLog, peer: controlling)
    }

    /// Credentials both ways, then gathering on both sides; candidates trickle as they appear.
    func connect(within limit: Duration = .seconds(10)) async throws {
        try await exchangeCredentials()
        try await controlling.startGathering()
        try await controlled.startGathering()
        try await waitUntilConnected(within: limit)
    }

    func exchangeCredentials() async throws {
        let a = controlling.localCredentials
        let b = controlled.localCredentials
        try await controlled.setRemoteCredentials(ufrag: a.ufrag, pwd: a.pwd)
        try await controlling.setRemoteCredentials(ufrag: b.ufrag, pwd: b.pwd)
    }

    func waitUntilConnected(within limit: Duration = .seconds(10)) async throws {
        try await controllingLog.wait("controlling agent connected", within: limit) { $0.isConnected }
        try await controlledLog.wait("controlled agent connected", within: limit) { $0.isConnected }
    }

    func close() async {
        await controlling.close()
        await controlled.close()
    }

    /// Records each event into `log`, trickling candidates and end-of-candidates to `peer` first.
    private func pump(from agent: ICEAgent, into log: StreamRecorder<ICEEvent>, peer: ICEAgent) {
        log.record(agent.events) { event in
            do throws(ICEError) {
                switch event {
                case .localCandidate(let line): try await peer.addRemoteCandidate(line)
                case .gatheringDone: try await peer.remoteGatheringDone()
                case .stateChanged, .selectedPair: break
                }
            } catch {
                if error != .closed { self.trickleErrors.withLock { $0.append(error) } }
            }
        }
    }
}

/// Collects exactly `count` datagrams from `agent` (cancellation ends the wait early).
func receive(_ count: Int, from agent: ICEAgent) async -> [[UInt8]] {
    var received: [[UInt8]] = []
    for await datagram in agent.datagrams {
        received.append(datagram)
        if received.count == count { break }
    }
    return received
}
