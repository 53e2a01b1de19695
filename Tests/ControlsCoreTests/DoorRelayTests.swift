import ControlsCore
import Testing

@Suite("Door relay")
struct DoorRelayTests {
    /// 3 s pulses, 1 s of rest.
    static let relay = DoorRelay()

    @Test func aPulseEnergizesTheRelayForItsLength() {
        var relay = Self.relay
        #expect(relay.isEnergized(at: ms(1_000)) == false)
        #expect(relay.requestPulse(at: ms(1_000)) == .accepted(endsAt: ms(4_000)))
        #expect(relay.isEnergized(at: ms(1_000).justBefore) == false)
        #expect(relay.isEnergized(at: ms(1_000)))
        #expect(relay.isEnergized(at: ms(4_000).justBefore))
        #expect(relay.isEnergized(at: ms(4_000)) == false)
        #expect(relay.pulseEnd(after: ms(2_000)) == ms(4_000))
        #expect(relay.pulseEnd(after: ms(4_000)) == nil)
    }

    @Test func aRelayClosedLateStillGetsItsFullPulseAndRest() {
        var relay = Self.relay
        _ = relay.requestPulse(at: ms(1_000))
        relay.energized(at: ms(1_040))
        #expect(relay.isEnergized(at: ms(4_000)))
        #expect(relay.pulseEnd(after: ms(2_000)) == ms(4_040))
        #expect(relay.requestPulse(at: ms(5_000)) == .refused(.resting(availableAt: ms(5_040))))
        // Only a running pulse moves, and never earlier.
        relay.energized(at: ms(1_020))
        #expect(relay.lastPulseStart == ms(1_040))
        relay.energized(at: ms(9_000))
        #expect(relay.lastPulseStart == ms(1_040))
    }

    @Test func aRequestDuringAPulseIsRefused() {
        var relay = Self.relay
        _ = relay.requestPulse(at: ms(1_000))
        #expect(relay.requestPulse(at: ms(2_000)) == .refused(.alreadyPulsing(endsAt: ms(4_000))))
        #expect(relay.requestPulse(at: ms(4_000).justBefore) == .refused(.alreadyPulsing(endsAt: ms(4_000))))
        #expect(relay.lastPulseStart == ms(1_000))
    }

    @Test func theRelayRestsForTheMinimumGap() {
        var relay = Self.relay
        _ = relay.requestPulse(at: ms(1_000))
        #expect(relay.requestPulse(at: ms(4_000)) == .refused(.resting(availableAt: ms(5_000))))
        #expect(relay.requestPulse(at: ms(5_000).justBefore) == .refused(.resting(availableAt: ms(5_000))))
        #expect(relay.requestPulse(at: ms(5_000)) == .accepted(endsAt: ms(8_000)))
    }

    @Test func aRequestDatedBeforeTheLastPulseCountsAsItsStart() {
        var relay = Self.relay
        _ = relay.requestPulse(at: ms(10_000))
        #expect(relay.requestPulse(at: ms(1_000)) == .refused(.alreadyPulsing(endsAt: ms(13_000))))
    }

    @Test func withoutAGapAPulseMayFollowAtOnce() throws {
        var relay = DoorRelay(timing: try DoorRelayTiming(pulseLength: .milliseconds(500), minimumGap: .zero))
        #expect(relay.requestPulse(at: ms(0)) == .accepted(endsAt: ms(500)))
        #expect(relay.requestPulse(at: ms(500)) == .accepted(endsAt: ms(1_000)))
    }

    @Test func timingsOutOfRangeThrow() throws {
        #expect(DoorRelayTiming.standard == (try DoorRelayTiming()))
        #expect(DoorRelayTiming.standard.pulseLength == .seconds(3))
        #expect(DoorRelayTiming.standard.minimumGap == .seconds(1))
        #expect(throws: ControlsConfigurationError(
            setting: "pulseLength", value: .milliseconds(50), allowed: DoorRelayTiming.pulseLengthRange)
        ) {
            try DoorRelayTiming(pulseLength: .milliseconds(50))
        }
        #expect(throws: ControlsConfigurationError(
            setting: "minimumGap", value: .seconds(-1), allowed: DoorRelayTiming.minimumGapRange)
        ) {
            try DoorRelayTiming(minimumGap: .seconds(-1))
        }
    }
}
