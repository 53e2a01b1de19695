import Foundation
import HummingbirdWSClient
import Logging
import ParseWire
import ServerTestSupport

/// A raw WebSocket for wire-level tests: send text frames, await the next received one with a deadline.
final class WebSocketProbe: Sendable {
    private let outbox: AsyncStream<String>.Continuation
    private let inbox = FrameInbox()
    private let task: Task<Void, Never>

    init(url: String) {
        let (outgoing, outbox) = AsyncStream<String>.makeStream()
        let inboxSink = inbox
        self.outbox = outbox
        task = Task {
            _ = try? await WebSocketClient.connect(url: url, logger: RunningServer.logger) { inbound, outbound, _ in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in outgoing { try await outbound.writeTextMessage(text) }
                        try? await outbound.close(.normalClosure, reason: nil)
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 20) {
                            if case .text(let text) = message { await inboxSink.put(text) }
                        }
                    }
                    _ = try await group.next()
                    group.cancelAll()
                }
            }
            await inboxSink.finish()
        }
    }

    func send(_ text: String) { outbox.yield(text) }
    func send(_ json: JSONValue) { outbox.yield(json.jsonText()) }

    /// The next frame as JSON; fails after `seconds`; nil when the socket closed.
    func next(within seconds: Double = 5) async throws -> JSONValue? {
        switch await inbox.take(within: seconds) {
        case .frame(let text): return try JSONValue.parse(Array(text.utf8), limit: 1 << 20)
        case .closed: return nil
        case .timedOut: throw TestFailure("no frame within \(seconds) s")
        }
    }

    /// Whether a frame arrives within `seconds` (for "nothing is delivered" checks).
    func receivesNothing(within seconds: Double) async -> Bool {
        do {
            _ = try await next(within: seconds)
            return false
        } catch {
            return true
        }
    }

    func close() {
        outbox.finish()
    }

    deinit { task.cancel() }
}

/// Received frames and at most one waiting reader; a wait ends with a frame, the close, or its deadline.
actor FrameInbox {
    enum Taken: Sendable { case frame(String), closed, timedOut }

    private var frames: [String] = []
    private var closed = false
    private var waiter: (id: Int, continuation: CheckedContinuation<Taken, Never>)?
    private var waits = 0

    func put(_ text: String) {
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: .frame(text))
        } else {
            frames.append(text)
        }
    }

    func finish() {
        closed = true
        if let waiter {
            self.waiter = nil
            waiter.continuation.resume(returning: .closed)
        }
    }

    func take(within seconds: Double) async -> Taken {
        if !frames.isEmpty { return .frame(frames.removeFirst()) }
        if closed { return .closed }
        waits += 1
        let id = waits
        Task {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            self.expire(id)
        }
        return await withCheckedContinuation { waiter = (id, $0) }
    }

    private func expire(_ id: Int) {
        guard let waiter, waiter.id == id else { return }
        self.waiter = nil
        waiter.continuation.resume(returning: .timedOut)
    }
}
