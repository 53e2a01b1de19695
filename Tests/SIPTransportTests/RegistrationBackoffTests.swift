import Testing
@testable import SIPTransport

@Suite("Registration backoff and the SIP thread's deadlines")
struct RegistrationBackoffTests {
    @Test("doubles from 1 s to the 60 s cap; a refusal waits at least 30 s; jitter adds at most 25 %; reset starts over")
    func backoff() {
        var backoff = RegistrationBackoff()
        let delays = (0..<8).map { _ in backoff.nextDelay(refused: false, jitter: 0) }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60].map { Duration.seconds($0) })
        #expect(backoff.nextDelay(refused: false, jitter: 1) == .seconds(75))
        backoff.reset()
        #expect(backoff.nextDelay(refused: true, jitter: 0) == .seconds(30))
        #expect(backoff.nextDelay(refused: false, jitter: 0.5) == .milliseconds(2250))
        // Thousands of failures never overflow nor drop below the cap.
        for _ in 0..<10_000 { _ = backoff.nextDelay(refused: false, jitter: 0) }
        #expect(backoff.nextDelay(refused: false, jitter: 0) == .seconds(60))
    }

    @Test("deadlines fire once, earliest first; restarting replaces, cancelled ones never fire")
    func deadlines() {
        var deadlines = SIPDeadlines<String>()
        deadlines.start("refresh", at: .seconds(10))
        deadlines.start("E", at: .milliseconds(500))
        deadlines.start("F", at: .seconds(32))
        deadlines.start("E", at: .seconds(1))
        deadlines.cancel("F")
        #expect(deadlines.next == .seconds(1))
        #expect(deadlines.takeDue(at: .milliseconds(900)).isEmpty)
        #expect(deadlines.takeDue(at: .seconds(20)) == ["E", "refresh"])
        #expect(deadlines.takeDue(at: .seconds(40)).isEmpty && deadlines.next == nil)
    }

    @Test("the registration states read as /health shows them")
    func words() {
        #expect(SIPRegistrationState.registered(expires: 600).word == "registered")
        #expect(SIPRegistrationState.authFailed("x").word == "auth failed" && !SIPRegistrationState.authFailed("x").isRegistered)
        #expect(SIPRegistrationState.unreachable("no answer").description == "unreachable: no answer")
        #expect(SIPUserAgentLoop.state(for: .wrongCredentials).word == "auth failed")
        #expect(SIPUserAgentLoop.state(for: .rejected(status: 403, reason: "Forbidden")).word == "auth failed")
        #expect(SIPUserAgentLoop.state(for: .rejected(status: 404, reason: "Not Found")) == .refused("404 Not Found"))
        #expect(SIPUserAgentLoop.state(for: .timedOut).word == "unreachable")
    }
}
