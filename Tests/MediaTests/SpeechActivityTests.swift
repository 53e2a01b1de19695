import Testing
@testable import Media

@Suite("Speech time from audio levels")
struct SpeechActivityTests {
    /// 20 ms packets from `start` (48 kHz ticks), one per level.
    func measure(_ levels: [Int], start: UInt32 = 1_000) -> SpeechActivity {
        var activity = SpeechActivity()
        for (index, level) in levels.enumerated() { activity.add(timestamp: start &+ UInt32(index) * 960, decibels: level) }
        return activity
    }

    @Test("silence and a fan's hum below the start level are no speech")
    func quiet() {
        #expect(measure(Array(repeating: -127, count: 100)).spokenSeconds == 0)
        #expect(measure(Array(repeating: -45, count: 100)).spokenSeconds == 0)
        #expect(measure(Array(repeating: -45, count: 100)).measuredPackets == 100)
    }

    @Test("one second of speech counts one second; its quiet tail counts until it drops below the hold level")
    func hysteresis() {
        let speech = Array(repeating: -20, count: 50)
        #expect(abs(measure(speech).spokenSeconds - 1.0) < 1e-9)
        // 10 packets at −45 after speech: still speech (above −50); then −55 ends it, and −45 alone does not restart it.
        let tail = speech + Array(repeating: -45, count: 10) + Array(repeating: -55, count: 5) + Array(repeating: -45, count: 10)
        let activity = measure(tail)
        #expect(abs(activity.spokenSeconds - 1.2) < 1e-9)
        #expect(!activity.speaking)
    }

    @Test("a gap (loss, DTX) counts one packet, not the gap; late and repeated packets do not move the clock back")
    func timing() {
        var activity = SpeechActivity()
        activity.add(timestamp: 0, decibels: -10)
        activity.add(timestamp: 960, decibels: -10)
        activity.add(timestamp: 960 + 48_000 * 5, decibels: -10)  // 5 s later
        #expect(abs(activity.spokenSeconds - 0.06) < 1e-9)
        activity.add(timestamp: 960, decibels: -10)  // late
        activity.add(timestamp: 960 + 48_000 * 5 + 960, decibels: -10)
        #expect(abs(activity.spokenSeconds - 0.10) < 1e-9)
    }

    @Test("timestamps wrap around 2^32")
    func wrap() {
        let activity = measure(Array(repeating: -20, count: 10), start: UInt32.max - 2_000)
        #expect(abs(activity.spokenSeconds - 0.2) < 1e-9)
    }
}
