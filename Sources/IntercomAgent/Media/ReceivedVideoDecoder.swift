import Dispatch
import Foundation
import IntercomPlatform
import Media
import Synchronization
import WebRTCCore

/// What the peer's VP8 frames tell a log or an installer: how many arrived, their size, and how many were
/// unusable. Nothing on the device displays the caller's video, so by default frames are only counted and
/// sized from their VP8 header (RFC 6386 §9.1) as they arrive, which costs next to nothing. When a consumer
/// wants pictures (`decodes`, e.g. `intercomd call` proving the stream decodes) they are decoded with
/// libvpx on a thread of their own (it blocks for milliseconds per frame, which must not happen on the
/// cooperative pool). Frames wait in a queue of at most 8; when the thread falls behind the oldest are
/// dropped (and the next delta frames fail to decode until a keyframe). The thread starts with the first
/// frame: a peer that sends no video costs nothing.
final class ReceivedVideoDecoder: Sendable {
    struct Report: Sendable, Equatable {
        /// Frames decoded, or, when not decoding, frames whose header parsed.
        var framesDecoded = 0
        var undecodable = 0
        var width = 0
        var height = 0
        var firstDecodedAt: ContinuousClock.Instant?
        var lastDecodedAt: ContinuousClock.Instant?
        /// The last decoded picture's mean luma (0…255), sampled on a sparse grid; nil when only counting.
        /// Tells a live camera from a dimmed placeholder of it (`intercomd call --progress`).
        var lastMeanLuma: Double?

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
    /// Whether frames are decoded (a consumer wants pictures) or only counted from their headers.
    let decodes: Bool

    init(decodes: Bool) {
        self.decodes = decodes
    }

    func enqueue(_ frame: [UInt8]) {
        guard decodes else { return count(frame) }
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

    /// What has arrived so far, while frames keep coming.
    var progress: Report { state.withLock { $0.report } }

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

    /// Counts `frame` from its header: a keyframe gives the size; a frame whose header does not parse is
    /// counted as unusable.
    private func count(_ frame: [UInt8]) {
        let header = try? VP8FrameHeader(parsing: frame[...])
        let now = ContinuousClock.now
        state.withLock { state in
            guard !state.finished else { return }
            guard let header else {
                state.report.undecodable += 1
                return
            }
            state.report.framesDecoded += 1
            if let width = header.width, let height = header.height {
                (state.report.width, state.report.height) = (Int(width), Int(height))
            }
            if state.report.firstDecodedAt == nil { state.report.firstDecodedAt = now }
            state.report.lastDecodedAt = now
        }
    }

    private func decode(_ bytes: [UInt8], with decoder: VP8Decoder) {
        let frames = (try? decoder.decode(bytes)) ?? []
        let now = ContinuousClock.now
        let meanLuma = frames.last.map(Self.sparseMeanLuma)
        state.withLock { state in
            guard let frame = frames.last else {
                state.report.undecodable += 1
                return
            }
            state.report.framesDecoded += frames.count
            state.report.width = frame.width
            state.report.height = frame.height
            state.report.lastMeanLuma = meanLuma
            if state.report.firstDecodedAt == nil { state.report.firstDecodedAt = now }
            state.report.lastDecodedAt = now
        }
    }

    /// Mean luma over every 8th pixel of every 8th row: a few thousand reads at 640x480.
    static func sparseMeanLuma(_ frame: I420Frame) -> Double {
        var sum = 0, count = 0
        for y in stride(from: 0, to: frame.height, by: 8) {
            for x in stride(from: 0, to: frame.width, by: 8) {
                sum += Int(frame.luma(x: x, y: y))
                count += 1
            }
        }
        return count > 0 ? Double(sum) / Double(count) : 0
    }
}
