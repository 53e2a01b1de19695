import ControlsCore
import GPIO
import IntercomPlatform
import Testing

@Suite("ControlOutputs: LED patterns and door pulses written to real lines by a thread", .serialized)
struct ControlOutputsTests {
    @Test("ringing blinks the status LED at 4 Hz; stop leaves every output off and released")
    func ringingThenStop() throws {
        let status = RecordingOutputLine(), ringing = RecordingOutputLine(), door = RecordingOutputLine()
        let outputs = ControlOutputs(status: status, ringing: ringing, door: door, doorTiming: .standard)
        outputs.show(.ringing)
        MonotonicClock.sleep(for: .milliseconds(1000))
        let onsInOneSecond = status.writes.filter { $0.active }.count
        // 4 Hz = 4 lit phases per second; allow one either side for thread scheduling on a loaded machine.
        #expect((3...5).contains(onsInOneSecond), "\(onsInOneSecond) lit phases")
        outputs.stop()
        #expect(eventually { outputs.hasFinished })
        for line in [status, ringing, door] {
            #expect(line.isReleased)
            #expect(line.lastLevel == false)
        }
    }

    @Test("inCall keeps both LEDs solid on")
    func solid() {
        let status = RecordingOutputLine(), ringing = RecordingOutputLine()
        let outputs = ControlOutputs(status: status, ringing: ringing, door: nil, doorTiming: .standard)
        outputs.show(.inCall)
        #expect(eventually { status.lastLevel == true && ringing.lastLevel == true })
        MonotonicClock.sleep(for: .milliseconds(300))
        #expect(status.writes.filter { !$0.active }.count <= 1, "only the initial off may precede the solid on")
        outputs.stop()
        #expect(eventually { outputs.hasFinished })
    }

    @Test("a door pulse energizes the relay for its length; a second request while pulsing is refused")
    func doorPulse() throws {
        let door = RecordingOutputLine()
        let timing = try DoorRelayTiming(pulseLength: .milliseconds(200), minimumGap: .milliseconds(100))
        let outputs = ControlOutputs(status: nil, ringing: nil, door: door, doorTiming: timing)
        guard case .accepted = outputs.pulseDoor() else {
            Issue.record("the first pulse must be accepted")
            return
        }
        guard case .refused(.alreadyPulsing) = outputs.pulseDoor() else {
            Issue.record("a pulse while pulsing must be refused")
            return
        }
        #expect(eventually { door.lastLevel == true })
        #expect(eventually { door.lastLevel == false })
        let writes = door.writes
        let on = try #require(writes.first { $0.active })
        let off = try #require(writes.last { !$0.active })
        #expect(off.at - on.at >= .milliseconds(190))
        #expect(off.at - on.at < .milliseconds(400))
        outputs.stop()
        #expect(eventually { outputs.hasFinished && door.isReleased })
    }
}
