import Foundation
import Testing
import ParseWire

@Suite struct CallRowDeduplicatorTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func firstSightingDeliversRepeatsAreDuplicates() {
        var dedup = CallRowDeduplicator()
        #expect(dedup.admit(objectId: "a", now: t0) == .deliver)
        #expect(dedup.admit(objectId: "a", now: t0 + 1) == .duplicate)
        #expect(dedup.admit(objectId: "b", now: t0 + 1) == .deliver)
        // Still remembered long after the row's ring time: a late copy from a poll is not a second call.
        #expect(dedup.admit(objectId: "a", now: t0 + 300) == .duplicate)
        #expect(dedup.count == 2)
    }

    /// The row's `expiresAt` plays no part: a device whose clock runs ahead of the server's still takes
    /// every row once (the call machine judges expiry on the monotonic clock, and logs what it refuses).
    @Test func aRowIsDeliveredWhateverItsExpiresAtSaysAgainstTheDevicesClock() {
        var dedup = CallRowDeduplicator()
        let row = ActiveSessionRow(objectId: "c1", callerID: "u1", receiverID: "me", expiresAt: t0 - 90)
        #expect(dedup.admit(row, now: t0) == .deliver)
        #expect(dedup.admit(row, now: t0 + 1) == .duplicate)
    }

    @Test func memoryIsBoundedByCapacityAndAge() {
        var dedup = CallRowDeduplicator(capacity: 16, retentionSeconds: 600)
        for i in 0..<10_000 {
            _ = dedup.admit(objectId: "row\(i)", now: t0 + Double(i) * 0.01)
            #expect(dedup.count <= 16)
        }
        // Only the most recent ids are remembered once the capacity is reached.
        #expect(dedup.admit(objectId: "row9999", now: t0 + 100) == .duplicate)
        #expect(dedup.admit(objectId: "row0", now: t0 + 100) == .deliver)
        // Ids are forgotten retentionSeconds after they were first seen.
        #expect(dedup.admit(objectId: "late", now: t0 + 10_000) == .deliver)
        #expect(dedup.count == 1)
    }

    /// Rows arrive through LiveQuery (create, enter, replays after reconnects) and through polls, in random
    /// order and multiplicity; each row must be delivered exactly once.
    @Test func exactlyOnceAcrossRandomLiveQueryAndPollInterleavings() {
        for seed in UInt64(1)...300 {
            var rng = SeededRandom(seed: seed)
            var dedup = CallRowDeduplicator(capacity: 64)
            let rowCount = Int.random(in: 1...20, using: &rng)
            var arrivals: [(id: String, at: Double)] = []
            for i in 0..<rowCount {
                let born = Double.random(in: 0...60, using: &rng)
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    arrivals.append(("call\(i)", born + Double.random(in: 0...90, using: &rng)))
                }
            }
            arrivals.sort { $0.at < $1.at }
            var delivered: [String: Int] = [:]
            for arrival in arrivals where dedup.admit(objectId: arrival.id, now: t0 + arrival.at) == .deliver {
                delivered[arrival.id, default: 0] += 1
            }
            #expect(delivered.values.allSatisfy { $0 == 1 }, "seed \(seed)")
            #expect(Set(delivered.keys) == Set(arrivals.map(\.id)), "seed \(seed)")
        }
    }

    @Test func pollScheduleFollowsLinkState() {
        var rng = SeededRandom(seed: 8)
        let schedule = PollSchedule()
        var fallback: [Double] = []
        for _ in 0..<500 {
            let down = schedule.nextDelay(liveQueryUp: false, using: &rng)
            let up = schedule.nextDelay(liveQueryUp: true, using: &rng)
            #expect(down >= 6 && down <= 10 && up >= 45 && up <= 75)
            fallback.append(down)
        }
        let mean = fallback.reduce(0, +) / Double(fallback.count)
        #expect(abs(mean - 8) < 0.3 && Set(fallback).count > 400)
    }
}

