import Testing
import ParseWire

@Suite struct RetryPolicyTests {
    struct Row: Sendable, CustomStringConvertible {
        var outcome: AttemptOutcome
        var expectation: Expected
        enum Expected: Sendable { case succeeded, fail, relogin, retryWithin(Double, Double) }
        var description: String { "\(outcome)" }
    }

    static let rows: [Row] = [
        Row(outcome: .response(status: 200, parseCode: nil), expectation: .succeeded),
        Row(outcome: .response(status: 201, parseCode: nil), expectation: .succeeded),
        Row(outcome: .transportError, expectation: .retryWithin(0.25, 0.5)),
        Row(outcome: .response(status: 500, parseCode: 1), expectation: .retryWithin(0.25, 0.5)),
        Row(outcome: .response(status: 503, parseCode: nil), expectation: .retryWithin(0.25, 0.5)),
        Row(outcome: .response(status: 429, parseCode: 100), expectation: .retryWithin(0.25, 0.5)),
        Row(outcome: .response(status: 429, parseCode: 100, retryAfterSeconds: 3), expectation: .retryWithin(3, 3)),
        Row(outcome: .response(status: 429, parseCode: 100, retryAfterSeconds: 3600), expectation: .retryWithin(60, 60)),
        Row(outcome: .response(status: 400, parseCode: 209), expectation: .relogin),
        Row(outcome: .response(status: 200, parseCode: 209), expectation: .relogin),
        Row(outcome: .response(status: 400, parseCode: 111), expectation: .fail),
        Row(outcome: .response(status: 403, parseCode: nil), expectation: .fail),
        Row(outcome: .response(status: 404, parseCode: 101), expectation: .fail),
        Row(outcome: .response(status: 400, parseCode: 159), expectation: .fail),
        Row(outcome: .response(status: 200, parseCode: 141), expectation: .fail),
    ]

    @Test(arguments: rows)
    func firstAttemptDecision(_ row: Row) {
        var rng = SeededRandom(seed: 7)
        var state = RetryState()
        let decision = state.decide(row.outcome, using: &rng)
        switch (row.expectation, decision) {
        case (.succeeded, .succeeded), (.fail, .fail), (.relogin, .relogin): break
        case (.retryWithin(let low, let high), .retry(let delay)): #expect(delay >= low && delay <= high)
        default: Issue.record("expected \(row.expectation), got \(decision)")
        }
    }

    @Test func transportErrorsBackOffExponentiallyCappedAndBounded() {
        var rng = SeededRandom(seed: 42)
        let policy = RetryPolicy(maxAttempts: 8, baseDelaySeconds: 0.5, maxDelaySeconds: 8)
        var state = RetryState(policy: policy)
        var delays: [Double] = []
        while case .retry(let delay) = state.decide(.transportError, using: &rng) { delays.append(delay) }
        #expect(delays.count == 7 && state.attempts == 8)
        for (index, delay) in delays.enumerated() {
            let ceiling = min(8, 0.5 * Double(1 << index))
            #expect(delay >= ceiling / 2 && delay <= ceiling, "retry \(index + 1): \(delay)")
        }
        #expect(delays.max()! <= 8 && delays.last! >= 4)
    }

    @Test func jitterIsDeterministicPerSeedAndVariesAcrossSeeds() {
        func delays(seed: UInt64) -> [Double] {
            var rng = SeededRandom(seed: seed)
            var state = RetryState()
            return (0..<4).compactMap { _ in
                if case .retry(let delay) = state.decide(.response(status: 502, parseCode: nil), using: &rng) { return delay }
                return nil
            }
        }
        #expect(delays(seed: 1) == delays(seed: 1) && delays(seed: 1).count == 4)
        #expect(delays(seed: 1) != delays(seed: 2))
    }

    @Test func reloginHappensExactlyOncePerRequest() {
        var rng = SeededRandom(seed: 3)
        var state = RetryState()
        #expect(state.decide(.response(status: 400, parseCode: 209), using: &rng) == .relogin)
        if case .retry = state.decide(.transportError, using: &rng) {} else { Issue.record("transport error after re-login must retry") }
        #expect(state.decide(.response(status: 400, parseCode: 209), using: &rng) == .fail)
        var fresh = RetryState()
        #expect(fresh.decide(.response(status: 200, parseCode: 209), using: &rng) == .relogin)
        #expect(fresh.decide(.response(status: 200, parseCode: nil), using: &rng) == .succeeded)
    }

    @Test func outageOfSixtySecondsStaysUnderOneRequestPerSecondOnAverage() {
        // Reliability matrix row 1: ≤1 req/s during an outage. Chain fresh requests back to back, as a
        // registration loop does, and count attempts over 60 s of simulated time.
        var rng = SeededRandom(seed: 99)
        var clock = 0.0
        var attempts = 0
        while clock < 60 {
            var state = RetryState()
            while clock < 60 {
                attempts += 1
                guard case .retry(let delay) = state.decide(.transportError, using: &rng) else { clock += 8; break }
                clock += delay
            }
        }
        #expect(attempts <= 60 && attempts > 5)
    }

    @Test func retryAfterHeaderParsing() {
        #expect(parseRetryAfterSeconds(" 12 ") == 12)
        #expect(parseRetryAfterSeconds("-1") == nil)
        #expect(parseRetryAfterSeconds("Wed, 21 Oct 2015 07:28:00 GMT") == nil)
        #expect(parseRetryAfterSeconds(nil) == nil)
    }
}
