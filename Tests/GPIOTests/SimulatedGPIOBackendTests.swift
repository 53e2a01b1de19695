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
        let timing = try ButtonTiming(debounce: .milliseconds(20), reportsLongPress: true,
                                      longPressThreshold: .milliseconds(400))
        let watcher = ButtonWatcher(name: "accept", line: line, timing: timing)
        // The watcher samples the starting level on its thread first; a press before that would be a hold
        // already in progress (reported silently). Presses closer than the debounce would merge.
        try await Task.sleep(for: .milliseconds(200))
        #expect(await backend.press("ACCEPT", holding: .milliseconds(80)))
        try await Task.sleep(for: .milliseconds(200))
        #expect(await backend.press("ACCEPT", holding: .milliseconds(700)))
        #expect(await !backend.press("NOPE"))
        // The watcher ends its stream when stopped: collect what came within a second of the last press.
        try await Task.sleep(for: .seconds(1))
        watcher.stop()
        var gestures: [ButtonGesture] = []
        for await report in watcher.gestures { gestures.append(report.gesture) }
        #expect(gestures.filter { $0 == .press }.count == 1, "\(gestures)")
        #expect(gestures.contains(.longPress), "\(gestures)")
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
