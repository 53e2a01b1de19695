import ControlsCore
import Testing

@Suite("Keypad door code")
struct DoorCodePolicyTests {
    func at(_ milliseconds: Int) -> MonotonicInstant { MonotonicInstant(sinceBoot: .milliseconds(milliseconds)) }

    func policy(submitsAtLength: Bool = false) throws -> DoorCodePolicy {
        DoorCodePolicy(configuration: try .init(
            code: "2580", submitsAtLength: submitsAtLength, maxWrongCodes: 3, lockout: .seconds(60), digitTimeout: .seconds(5)))
    }

    /// Types `keys` 100 ms apart from `start`, returning every action.
    func type(_ keys: String, into policy: inout DoorCodePolicy, from start: Int) -> [DoorCodePolicy.Action] {
        keys.enumerated().flatMap { policy.key($0.element, at: at(start + 100 * $0.offset)) }
    }

    @Test func rightCodeAndHashOpensOnce() throws {
        var door = try policy()
        door.callStarted()
        #expect(type("2580#", into: &door, from: 0) == [.openDoor])
        // The same call typing it again does not open a second time.
        #expect(type("2580#", into: &door, from: 1000) == [])
        door.callStarted()
        #expect(type("2580#", into: &door, from: 2000) == [.openDoor])
    }

    @Test func configuredLengthSubmitsWithoutHash() throws {
        var door = try policy(submitsAtLength: true)
        door.callStarted()
        #expect(type("1111", into: &door, from: 0) == [.wrongCode(remaining: 2)])
        #expect(type("2580", into: &door, from: 1000) == [.openDoor])
    }

    @Test func wrongCodesCountAndLockOutAcrossCalls() throws {
        var door = try policy()
        door.callStarted()
        #expect(type("1234#", into: &door, from: 0) == [.wrongCode(remaining: 2)])
        #expect(type("25800#", into: &door, from: 1000) == [.wrongCode(remaining: 1)])
        // A new call does not reset the count.
        door.callStarted()
        #expect(type("258#", into: &door, from: 2000) == [.lockedOut(until: at(2300 + 60_000))])
        #expect(door.isLockedOut(at: at(3000)))
        // While locked, even the right code is ignored.
        #expect(type("2580#", into: &door, from: 4000) == [])
        #expect(type("2580#", into: &door, from: 61_000) == [])
        // After the lockout the right code opens, and the count starts again.
        #expect(!door.isLockedOut(at: at(62_300)))
        #expect(type("2580#", into: &door, from: 62_300) == [.openDoor])
        door.callStarted()
        #expect(type("9999#", into: &door, from: 70_000) == [.wrongCode(remaining: 2)])
    }

    @Test func aRightCodeResetsTheWrongCount() throws {
        var door = try policy()
        door.callStarted()
        _ = type("1111#2222#", into: &door, from: 0)
        #expect(type("2580#", into: &door, from: 2000) == [.openDoor])
        door.callStarted()
        #expect(type("1111#", into: &door, from: 3000) == [.wrongCode(remaining: 2)])
    }

    @Test func digitTimeoutClearsAHalfTypedCode() throws {
        var door = try policy()
        door.callStarted()
        #expect(type("25", into: &door, from: 0) == [])
        #expect(door.nextDeadline == at(5100))
        #expect(door.tick(at: at(5099)) == [])
        #expect(door.tick(at: at(5100)) == [.cleared])
        #expect(door.nextDeadline == nil)
        // "25" was dropped: "80#" alone is a wrong code, not the right one.
        #expect(type("80#", into: &door, from: 6000) == [.wrongCode(remaining: 2)])
        // A key after the timeout without a tick clears first, then starts a new code.
        #expect(type("25", into: &door, from: 7000) == [])
        #expect(door.key("8", at: at(20_000)) == [.cleared])
        #expect(type("580#", into: &door, from: 20_100) == [.wrongCode(remaining: 1)])
        #expect(type("2580#", into: &door, from: 21_000) == [.openDoor])
    }

    @Test func aCallStartsWithNothingTyped() throws {
        var door = try policy()
        door.callStarted()
        _ = type("25", into: &door, from: 0)
        door.callStarted()
        #expect(type("80#", into: &door, from: 300) == [.wrongCode(remaining: 2)])
        // A lone # submits nothing.
        #expect(type("#", into: &door, from: 1000) == [])
    }

    @Test func configurationIsValidated() {
        #expect(throws: DoorCodeConfigurationError.invalidCode) { try DoorCodePolicy.Configuration(code: "123") }
        #expect(throws: DoorCodeConfigurationError.invalidCode) { try DoorCodePolicy.Configuration(code: "12#4") }
        #expect(throws: DoorCodeConfigurationError.invalidMaxWrongCodes(0)) {
            try DoorCodePolicy.Configuration(code: "1234", maxWrongCodes: 0)
        }
        #expect(throws: DoorCodeConfigurationError.invalidDuration) {
            try DoorCodePolicy.Configuration(code: "1234", digitTimeout: .zero)
        }
    }
}
