import CallCore
import Testing

/// Every race between two inputs, in both delivery orders, must give exactly one outcome and at most one
/// `startMedia`. Timers use their deadline; "late" steps come after the rival's deadline.
@Suite("Races")
struct RaceTests {
    enum Expect: Sendable, Equatable {
        /// Accepted, media started once, call still going in this state.
        case live(String)
        /// Exactly this outcome was logged.
        case ended(CallOutcome)
    }

    struct Race: Sendable, CustomTestStringConvertible {
        let name: String
        var policy = CallPolicy(
            answerMode: .button, ringTimeout: .seconds(30), maxDuration: .seconds(60), mediaTimeout: .seconds(10))
        var prelude: [Step] = Script.ringWithPartner
        var expiresAt: Double = 60
        let steps: [Step]
        let expect: Expect
        var restsIn: CallState = .idle
        var testDescription: String { name }
    }

    static let autoAfter5 = CallPolicy(answerMode: .autoAfter(.seconds(5)), ringTimeout: .seconds(30))
    static let autoAfter30 = CallPolicy(answerMode: .autoAfter(.seconds(30)), ringTimeout: .seconds(30))

    static let races: [Race] = [
        // Accept button vs auto-answer timer.
        Race(
            name: "accept, then auto-answer timer", policy: autoAfter5,
            steps: [.send(.accept, at: 4.9), .fire(.autoAnswer)], expect: .live("connecting")),
        Race(
            name: "auto-answer timer, then accept", policy: autoAfter5,
            steps: [.fire(.autoAnswer), .send(.accept, at: 5)], expect: .live("connecting")),
        // Accept vs remote bye.
        Race(
            name: "accept, then remote bye", steps: [.send(.accept, at: 3), .send(.bye(), at: 3.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .remoteBye(.hangup)))),
        Race(
            name: "remote bye, then accept", steps: [.send(.bye(), at: 3), .send(.accept, at: 3.1)],
            expect: .ended(.unanswered(.remoteBye(.hangup)))),
        // Accept vs ring timeout.
        Race(
            name: "accept, then ring timeout", steps: [.send(.accept, at: 29.9), .fire(.ringTimeout)],
            expect: .live("connecting")),
        Race(
            name: "ring timeout, then accept", steps: [.fire(.ringTimeout), .send(.accept, at: 30.1)],
            expect: .ended(.unanswered(.ringTimeout))),
        Race(
            name: "accept after the ring deadline, timer not yet delivered",
            steps: [.send(.accept, at: 30.5), .fire(.ringTimeout)], expect: .ended(.unanswered(.ringTimeout))),
        // Accept vs row expiry.
        Race(
            name: "accept, then row expiry", expiresAt: 20, steps: [.send(.accept, at: 19.9), .fire(.rowExpiry)],
            expect: .live("connecting")),
        Race(
            name: "row expiry, then accept", expiresAt: 20, steps: [.fire(.rowExpiry), .send(.accept, at: 20.1)],
            expect: .ended(.unanswered(.expired))),
        // Auto-answer timer vs remote bye.
        Race(
            name: "auto-answer, then remote bye", policy: autoAfter5,
            steps: [.fire(.autoAnswer), .send(.bye(.declined), at: 5.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .remoteBye(.declined)))),
        Race(
            name: "remote bye, then auto-answer", policy: autoAfter5,
            steps: [.send(.bye(.declined), at: 4.9), .fire(.autoAnswer)],
            expect: .ended(.unanswered(.remoteBye(.declined)))),
        // Auto-answer vs ring timeout at the same deadline: the earlier-armed timer (ring timeout) wins.
        Race(
            name: "auto-answer and ring timeout due together, auto-answer delivered first", policy: autoAfter30,
            steps: [.fire(.autoAnswer), .fire(.ringTimeout)], expect: .ended(.unanswered(.ringTimeout))),
        Race(
            name: "auto-answer and ring timeout due together, ring timeout delivered first", policy: autoAfter30,
            steps: [.fire(.ringTimeout), .fire(.autoAnswer)], expect: .ended(.unanswered(.ringTimeout))),
        // Hangup vs accept.
        Race(
            name: "accept, then hangup", steps: [.send(.accept, at: 3), .send(.hangup, at: 3.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .localHangup))),
        Race(
            name: "hangup, then accept", steps: [.send(.hangup, at: 3), .send(.accept, at: 3.1)],
            expect: .ended(.unanswered(.hangupButton))),
        // Hangup vs auto-answer timer.
        Race(
            name: "hangup, then auto-answer", policy: autoAfter5,
            steps: [.send(.hangup, at: 4.9), .fire(.autoAnswer)], expect: .ended(.unanswered(.hangupButton))),
        Race(
            name: "auto-answer, then hangup", policy: autoAfter5,
            steps: [.fire(.autoAnswer), .send(.hangup, at: 5.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .localHangup))),
        // Backend down vs accept: the call goes on; afterwards the device is offline.
        Race(
            name: "backend down, then accept", steps: [.send(.backendDown, at: 3), .send(.accept, at: 3.1)],
            expect: .live("connecting"), restsIn: .offline),
        Race(
            name: "accept, then backend down", steps: [.send(.accept, at: 3), .send(.backendDown, at: 3.1)],
            expect: .live("connecting"), restsIn: .offline),
        // Backend down vs ring timeout.
        Race(
            name: "backend down, then ring timeout", steps: [.send(.backendDown, at: 29), .fire(.ringTimeout)],
            expect: .ended(.unanswered(.ringTimeout)), restsIn: .offline),
        Race(
            name: "ring timeout, then backend down", steps: [.fire(.ringTimeout), .send(.backendDown, at: 31)],
            expect: .ended(.unanswered(.ringTimeout)), restsIn: .offline),
        // Ring timeout vs row expiry: by deadline, whatever the delivery order.
        Race(
            name: "row expiry (earlier deadline), then ring timeout", expiresAt: 29.5,
            steps: [.fire(.rowExpiry), .fire(.ringTimeout)], expect: .ended(.unanswered(.expired))),
        Race(
            name: "ring timeout delivered before the earlier row expiry", expiresAt: 29.5,
            steps: [.fire(.ringTimeout), .fire(.rowExpiry)], expect: .ended(.unanswered(.expired))),
        // Remote bye vs ring timeout.
        Race(
            name: "remote bye, then ring timeout", steps: [.send(.bye(), at: 29), .fire(.ringTimeout)],
            expect: .ended(.unanswered(.remoteBye(.hangup)))),
        Race(
            name: "ring timeout, then remote bye", steps: [.fire(.ringTimeout), .send(.bye(), at: 30.1)],
            expect: .ended(.unanswered(.ringTimeout))),
        // Partner leaves vs accept.
        Race(
            name: "partner leaves, then accept",
            steps: [.send(.remote(.peerLeft(peer: "p1")), at: 3), .send(.accept, at: 3.1)],
            expect: .ended(.unanswered(.remoteLeft))),
        Race(
            name: "accept, then partner leaves",
            steps: [.send(.accept, at: 3), .send(.remote(.peerLeft(peer: "p1")), at: 3.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .remoteLeft))),
        // Device fault vs accept.
        Race(
            name: "device fault, then accept",
            steps: [.send(.deviceFault(device: "camera"), at: 3), .send(.accept, at: 3.1)],
            expect: .ended(.unanswered(.deviceFault)), restsIn: .fault),
        Race(
            name: "accept, then device fault",
            steps: [.send(.accept, at: 3), .send(.deviceFault(device: "camera"), at: 3.1)],
            expect: .ended(.failed(.endedBeforeMedia, ended: .deviceFault)), restsIn: .fault),
        // In a call: hangup vs remote bye.
        Race(
            name: "in call: hangup, then remote bye", prelude: Script.inCall,
            steps: [.send(.hangup, at: 5), .send(.bye(), at: 5.1)], expect: .ended(.answered(ended: .localHangup))),
        Race(
            name: "in call: remote bye, then hangup", prelude: Script.inCall,
            steps: [.send(.bye(), at: 5), .send(.hangup, at: 5.1)],
            expect: .ended(.answered(ended: .remoteBye(.hangup)))),
        // In a call: max duration vs hangup.
        Race(
            name: "in call: max duration, then hangup", prelude: Script.inCall,
            steps: [.fire(.maxDuration), .send(.hangup, at: 61.1)], expect: .ended(.answered(ended: .maxDuration))),
        Race(
            name: "in call: hangup, then max duration", prelude: Script.inCall,
            steps: [.send(.hangup, at: 60.9), .fire(.maxDuration)], expect: .ended(.answered(ended: .localHangup))),
        // Connecting: media timeout vs media up.
        Race(
            name: "connecting: media up, then media timeout", prelude: Script.answered,
            steps: [.send(.mediaUp, at: 10.9), .fire(.mediaTimeout)], expect: .live("inCall")),
        Race(
            name: "connecting: media timeout, then media up", prelude: Script.answered,
            steps: [.fire(.mediaTimeout), .send(.mediaUp, at: 11.1)],
            expect: .ended(.failed(.mediaTimeout, ended: .mediaTimeout))),
    ]

    @Test(arguments: races)
    func raceResolvesToOneOutcome(_ race: Race) {
        var harness = Harness(race.policy)
        let prelude = race.prelude.map { step -> Step in
            if case .send(.incomingCall, let at) = step { return .send(row(expiresAt: race.expiresAt), at: at) }
            return step
        }
        harness.run(prelude)
        harness.run(race.steps)

        switch race.expect {
        case .live(let stateName):
            #expect(harness.machine.state.name == stateName)
            #expect(harness.outcomes().isEmpty)
            #expect(harness.mediaStarts() == 1)
        case .ended(let outcome):
            #expect(harness.outcomes() == [outcome])
            #expect(harness.mediaStarts() == (outcome.wasAnswered ? 1 : 0))
        }

        // Whatever is left of the call ends once, and the device settles.
        harness.send(.hangup, at: harness.now.inSeconds + 1)
        harness.drain()
        #expect(harness.outcomes().count == 1)
        #expect(harness.mediaStarts() <= 1)
        #expect(harness.machine.state == race.restsIn)
        #expect(harness.live.isEmpty)
    }
}
