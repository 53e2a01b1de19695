import Dispatch
import Foundation
import IntercomPlatform
import Media
import Synchronization

/// Decodes the peer's VP8 frames on a thread of its own (libvpx blocks for milliseconds per frame, which
/// must not happen on the cooperative pool) and keeps what a test or an installer wants to know: how many
/// frames decoded, their size, and how many could not be. Frames wait in a queue of at most 8; when the
/// thread falls behind the oldest are dropped (and the next delta frames fail to decode until a keyframe).
/// The thread starts with the first frame: a peer that sends no video costs nothing.
final class ReceivedVideoDecoder: Sendable {
    struct Report: Sendable, Equatable {
        var framesDecoded = 0
        var undecodable = 0
        var width = 0
        var height = 0
        var firstDecodedAt: ContinuousClock.Instant?
        var lastDecodedAt: ContinuousClock.Instant?

        /// Frames per second between the first and the last decoded frame.
        var framesPerSecond: Double {
            guard let first = firstDecodedAt, let last = lastDecodedAt, framesDecoded > 1 else { return 0 }
            let span = last - first
            let seconds = Double(span.components.seconds) + Double(span.components.attoseconds) / 1e18
            return seconds > 0 ? Double(framesDecoded - 1) / seconds : 0
        }
    }

    private let state = Mutex<(queue: [[UInt8]], started: Bool, finished: Bool, report: Report)>(([], false, false, Report()))
    private let arrived = DispatchSemaphore(value: 0)

    func enqueue(_ frame: [UInt8]) {
        let start = state.withLock { state -> Bool in
            guard !state.finished else { return false }
            if state.queue.count >= 8 { state.queue.removeFirst() }
            state.queue.append(frame)
            defer { state.started = true }
            return !state.started
        }
        if start {
            NamedThread.start("intercom-vp8dec") { [self] in decodeLoop() }
        }
        arrived.signal()
    }

    /// Stops the thread (after the frame in hand) and returns what it decoded.
    func finish() -> Report {
        let report = state.withLock { state in
            state.finished = true
            return state.report
        }
        arrived.signal()
        return report
    }

    private enum Next {
        case frame([UInt8])
        case wait
        case stop
    }

    private func decodeLoop() {
        guard let decoder = try? VP8Decoder() else { return }
        while true {
            let next = state.withLock { state -> Next in
                if state.finished { return .stop }
                return state.queue.isEmpty ? .wait : .frame(state.queue.removeFirst())
            }
            switch next {
            case .stop:
                return
            case .wait:
                arrived.wait()
            case .frame(let bytes):
                decode(bytes, with: decoder)
            }
        }
    }

    private func decode(_ bytes: [UInt8], with decoder: VP8Decoder) {
        let frames = (try? decoder.decode(bytes)) ?? []
        let now = ContinuousClock.now
        state.withLock { state in
            guard let frame = frames.last else {
                state.report.undecodable += 1
                return
            }
            state.report.framesDecoded += frames.count
            state.report.width = frame.width
            state.report.height = frame.height
            if state.report.firstDecodedAt == nil { state.report.firstDecodedAt = now }
            state.report.lastDecodedAt = now
        }
    }
}
