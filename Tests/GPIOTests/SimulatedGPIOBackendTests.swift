import ControlsCore
import GPIO
import Synchronization
import Testing

@Suite("Simulated GPIO: the demo's buttons go through the real watcher and interpreter")
struct SimulatedGPIOBackendTests {
    @Test("a press becomes one press gesture, a long hold a long press; unknown lines report false")
    func pressesBecomeGestures() async throws {
        let backend = SimulatedGPIOBackend()
        let line = try backend.requestInput(GPIOLineRequest(address: .named("ACCEPT")))
        // Durations far apart, so that a loaded machine (sleeps running late) cannot turn the short press
        // into a long one: the release is a Task.sleep on the cooperative pool, which the suite's other tests
        // (processes waited for, capture loops) can keep busy for over a second on two cores.
        let timing = try ButtonTiming(debounce: .milliseconds(20), reportsLongPress: true,
                                      longPressThreshold: .milliseconds(4000))
        let watcher = ButtonWatcher(name: "accept", line: line, timing: timing)
        let seen = Mutex<[ButtonGesture]>([])
        let collector = Task {
            for await report in watcher.gestures { seen.withLock { $0.append(report.gesture) } }
        }
        // The watcher samples the starting level on its thread first; a press before that would be a hold
        // already in progress (reported silently).
        let started = ContinuousClock.now
        while !backend.isWatched("ACCEPT"), ContinuousClock.now - started < .seconds(10) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(await backend.press("ACCEPT", holding: .milliseconds(60)))
        // Presses closer than the debounce would merge.
        try await Task.sleep(for: .milliseconds(200))
        #expect(await backend.press("ACCEPT", holding: .milliseconds(4600)))
        #expect(await !backend.press("NOPE"))
        let deadline = ContinuousClock.now + .seconds(10)
        while !seen.withLock({ $0.contains(.longPress) }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        try await Task.sleep(for: .milliseconds(200))  // anything that should not come would come now
        watcher.stop()
        await collector.value
        let gestures = seen.withLock { $0 }
        #expect(gestures.filter { $0 == .press }.count == 1, "\(gestures)")
        #expect(gestures.filter { $0 == .longPress }.count == 1, "\(gestures)")
    }

    @Test("outputs keep their level, report changes only, and a line is claimed once")
    func outputs() throws {
        let changes = Mutex<[String]>([])
        let backend = SimulatedGPIOBackend { line, active in changes.withLock { $0.append("\(line)=\(active)") } }
        let door = try backend.requestOutput(GPIOLineRequest(address: .offset(chip: "gpiochip0", 5)), initiallyActive: false)
        try door.setActive(true)
        try door.setActive(true)
        #expect(backend.level("gpiochip0:5") == true)
        door.release()
        #expect(backend.level("gpiochip0:5") == false)
        #expect(changes.withLock { $0 } == ["gpiochip0:5=true", "gpiochip0:5=false"])
        #expect(backend.level("LED") == nil)
        #expect(throws: GPIOError.self) {
            try backend.requestOutput(GPIOLineRequest(address: .offset(chip: "gpiochip0", 5)), initiallyActive: false)
        }
    }
}
