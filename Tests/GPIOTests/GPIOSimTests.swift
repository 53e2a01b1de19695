import ControlsCore
import Foundation
import GPIO
import IntercomPlatform
import IntercomTestSupport
import Testing

/// Real-kernel GPIO tests. They run inside the QEMU harness stage of scripts/test.sh (`harness.sh run --
/// …xctest --filter GPIOSimTests`); the host stage skips them by name because the host has no gpio-sim.
@Suite("libgpiod backend against the kernel's gpio-sim (QEMU harness)", .serialized,
       .enabled(if: GPIOSim.harness.isAvailable, "needs the gpio-sim chip: run inside Tests/hardware/harness.sh"))
struct GPIOSimTests {
    @Test("an active-low button with pull-up: each simulated press gives exactly one press and one release")
    func buttonPresses() async throws {
        try GPIOSim.harness.pull("pull-up", offset: 0)
        let line = try LibGPIODBackend().requestInput(GPIOLineRequest(address: .named("GPIO17"), bias: .pullUp, activeLow: true))
        let watcher = ButtonWatcher(name: "accept", line: line, timing: .plain)
        let reports = Task {
            var gestures: [ButtonGesture] = []
            for await report in watcher.gestures { gestures.append(report.gesture) }
            return gestures
        }
        MonotonicClock.sleep(for: .milliseconds(100))
        for _ in 0..<5 {
            try GPIOSim.harness.pull("pull-down", offset: 0)
            MonotonicClock.sleep(for: .milliseconds(120))
            try GPIOSim.harness.pull("pull-up", offset: 0)
            MonotonicClock.sleep(for: .milliseconds(120))
        }
        watcher.stop()
        let gestures = await reports.value
        #expect(gestures.filter { $0 == .press }.count == 5, "\(gestures)")
        #expect(gestures == Array(repeating: [ButtonGesture.press, .release], count: 5).flatMap { $0 })
        #expect(watcher.failure == nil)
    }

    @Test("LEDs and the relay drive the simulated lines; stop leaves them low and released")
    func outputs() throws {
        let backend = LibGPIODBackend()
        let status = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO23")), initiallyActive: false)
        let ringing = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO24")), initiallyActive: false)
        let door = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO25")), initiallyActive: false)
        let timing = try DoorRelayTiming(pulseLength: .milliseconds(300), minimumGap: .milliseconds(100))
        let outputs = ControlOutputs(status: status, ringing: ringing, door: door, doorTiming: timing)
        outputs.show(.inCall)
        MonotonicClock.sleep(for: .milliseconds(150))
        #expect(GPIOSim.harness.value(offset: 3) == 1)
        #expect(GPIOSim.harness.value(offset: 4) == 1)
        #expect(GPIOSim.harness.value(offset: 5) == 0)
        guard case .accepted = outputs.pulseDoor() else {
            Issue.record("the door pulse must be accepted")
            return
        }
        MonotonicClock.sleep(for: .milliseconds(100))
        #expect(GPIOSim.harness.value(offset: 5) == 1)
        MonotonicClock.sleep(for: .milliseconds(400))
        #expect(GPIOSim.harness.value(offset: 5) == 0)
        outputs.stop()
        let deadline = MonotonicClock.now() + .seconds(2)
        while !outputs.hasFinished, MonotonicClock.now() < deadline { MonotonicClock.sleep(for: .milliseconds(10)) }
        #expect(outputs.hasFinished)
        #expect(GPIOSim.harness.value(offset: 3) == 0)
        #expect(GPIOSim.harness.value(offset: 4) == 0)
        // Released: the line can be claimed again at once.
        let again = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO23")), initiallyActive: false)
        again.release()
    }

    @Test("a line another consumer holds is reported busy")
    func busyLine() throws {
        let backend = LibGPIODBackend()
        let first = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO22")), initiallyActive: false)
        defer { first.release() }
        #expect {
            _ = try backend.requestOutput(GPIOLineRequest(address: .named("GPIO22")), initiallyActive: false)
        } throws: { ($0 as? GPIOError)?.kind == .busy }
    }
}
