import ControlsCore
import GPIO
import Glibc
import IntercomPlatform
import Testing

@Suite("ButtonWatcher: kernel edges on a dedicated thread become one gesture per press")
struct ButtonWatcherTests {
    /// The first `count` gestures, or fewer if `timeout` passes first (then the watcher is stopped, which
    /// ends its stream): a test that gets too few fails on its expectation instead of hanging.
    private func collect(_ watcher: ButtonWatcher, count: Int, timeout: Duration = .seconds(3)) async -> [ButtonGesture] {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            watcher.stop()
        }
        defer { timer.cancel() }
        var gestures: [ButtonGesture] = []
        for await report in watcher.gestures {
            gestures.append(report.gesture)
            if gestures.count >= count { break }
        }
        return gestures
    }

    @Test("a bouncy press and release give exactly one press and one release")
    func bouncyPress() async throws {
        let line = FakeInputLine()
        let watcher = ButtonWatcher(name: "accept", line: line, timing: .plain)
        #expect(eventually { line.wasSampled })
        let start = MonotonicClock.now()
        // 20 edges within 5 ms on press, then a clean hold, then 20 bouncing edges on release.
        for index in 0..<20 { line.push(index.isMultiple(of: 2) ? .rising : .falling, at: start + .microseconds(250 * index)) }
        line.push(.rising, at: start + .milliseconds(5))
        MonotonicClock.sleep(for: .milliseconds(150))
        let release = MonotonicClock.now()
        for index in 0..<20 { line.push(index.isMultiple(of: 2) ? .falling : .rising, at: release + .microseconds(250 * index)) }
        line.push(.falling, at: release + .milliseconds(5))
        let gestures = await collect(watcher, count: 2)
        #expect(gestures == [.press, .release])
        watcher.stop()
        #expect(eventually { watcher.hasFinished && line.isReleased })
    }

    @Test("a button already held when watching starts reports nothing until it is released and pressed again")
    func heldAtStart() async {
        let line = FakeInputLine()
        line.push(.rising, at: MonotonicClock.now())
        let watcher = ButtonWatcher(name: "accept", line: line, timing: .plain)
        #expect(eventually { line.wasSampled })
        line.push(.falling, at: MonotonicClock.now())
        MonotonicClock.sleep(for: .milliseconds(100))
        line.push(.rising, at: MonotonicClock.now())
        // The hold in progress at start is not a human action we saw begin: no press and no release for it.
        #expect(await collect(watcher, count: 1, timeout: .seconds(1)) == [.press])
    }

    @Test("a long hold with long-press reporting gives longPress, not press")
    func longPress() async throws {
        let line = FakeInputLine()
        let timing = try ButtonTiming(reportsLongPress: true, longPressThreshold: .milliseconds(300))
        let watcher = ButtonWatcher(name: "accept", line: line, timing: timing)
        #expect(eventually { line.wasSampled })
        line.push(.rising, at: MonotonicClock.now())
        let gestures = await collect(watcher, count: 1)
        #expect(gestures == [.longPress])
        watcher.stop()
        #expect(eventually { watcher.hasFinished })
    }

    @Test("stop releases the line within the poll interval and ends the stream")
    func stopReleases() async {
        let line = FakeInputLine()
        let watcher = ButtonWatcher(name: "hangup", line: line, timing: .plain)
        let stoppedAt = MonotonicClock.now()
        watcher.stop()
        #expect(eventually(timeout: .milliseconds(500)) { line.isReleased })
        #expect(MonotonicClock.now() - stoppedAt < .milliseconds(500))
        var count = 0
        for await _ in watcher.gestures { count += 1 }
        #expect(count == 0)
    }

    @Test("a line that fails (chip removed) ends the watcher with the error and releases the line")
    func failure() async {
        let line = FakeInputLine()
        let watcher = ButtonWatcher(name: "call", line: line, timing: .plain)
        let error = GPIOError(kind: .failed, line: "line \"GPIO22\"", cause: SystemCallError(call: "gpiod_line_event_wait", errno: ENODEV))
        line.fail(with: error)
        for await _ in watcher.gestures {}
        #expect(watcher.failure == error)
        #expect(line.isReleased)
    }
}
