import Foundation
import Testing
import ParseWire

@Suite struct CallRowDeduplicatorTests {
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func firstSightingDeliversRepeatsAreDuplicatesExpiredNeverDeliver() {
        var dedup = CallRowDeduplicator()
        #expect(dedup.admit(objectId: "a", expiresAt: t0 + 60, now: t0) == .deliver)
        #expect(dedup.admit(objectId: "a", expiresAt: t0 + 60, now: t0 + 1) == .duplicate)
        #expect(dedup.admit(objectId: "b", expiresAt: t0, now: t0) == .expired)
        #expect(dedup.admit(objectId: "b", expiresAt: t0, now: t0 + 1) == .expired)
        // After `a` expired it is forgotten, and a late copy is refused as expired, not redelivered.
        #expect(dedup.admit(objectId: "a", expiresAt: t0 + 60, now: t0 + 61) == .expired)
        #expect(dedup.count == 0)
    }

    @Test func memoryIsBoundedByCapacityAndExpiry() {
        var dedup = CallRowDeduplicator(capacity: 16, defaultRetentionSeconds: 600)
        for i in 0..<10_000 {
            _ = dedup.admit(objectId: "row\(i)", expiresAt: nil, now: t0 + Double(i) * 0.01)
            #expect(dedup.count <= 16)
        }
        // Only the most recent ids are remembered once the capacity is reached.
        #expect(dedup.admit(objectId: "row9999", expiresAt: nil, now: t0 + 100) == .duplicate)
        #expect(dedup.admit(objectId: "row0", expiresAt: nil, now: t0 + 100) == .deliver)
        // Retention without expiresAt: ids are forgotten after defaultRetentionSeconds.
        #expect(dedup.admit(objectId: "late", expiresAt: nil, now: t0 + 10_000) == .deliver)
        #expect(dedup.count == 1)
    }

    /// Rows arrive through LiveQuery (create, enter, replays after reconnects) and through polls, in random
    /// order and multiplicity; each live row must be delivered exactly once and no expired row ever.
    @Test func exactlyOnceAcrossRandomLiveQueryAndPollInterleavings() {
        for seed in UInt64(1)...300 {
            var rng = SeededRandom(seed: seed)
            var dedup = CallRowDeduplicator(capacity: 64)
            let rowCount = Int.random(in: 1...20, using: &rng)
            let rows = (0..<rowCount).map { i in
                (id: "call\(i)", expiresAt: t0 + Double(Int.random(in: 5...120, using: &rng)))
            }
            var arrivals: [(id: String, expiresAt: Date, at: Double)] = []
            for row in rows {
                let born = Double.random(in: 0...60, using: &rng)
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    arrivals.append((row.id, row.expiresAt, born + Double.random(in: 0...90, using: &rng)))
                }
            }
            arrivals.sort { $0.at < $1.at }
            var delivered: [String: Int] = [:]
            for arrival in arrivals {
                let now = t0 + arrival.at
                let verdict = dedup.admit(objectId: arrival.id, expiresAt: arrival.expiresAt, now: now)
                if verdict == .deliver {
                    delivered[arrival.id, default: 0] += 1
                    #expect(arrival.expiresAt > now)
                }
            }
            #expect(delivered.values.allSatisfy { $0 == 1 }, "seed \(seed)")
            // Every row that had at least one arrival before its expiry was delivered.
            let deliverable = Set(arrivals.filter { $0.expiresAt > t0 + $0.at }.map(\.id))
            #expect(Set(delivered.keys) == deliverable, "seed \(seed)")
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

