import SIPCore
import Testing

@Suite("Client transactions (RFC 3261 §17.1)")
struct ClientTransactionTests {
    let invite = try! parse(sampleInvite)
    let register = try! parse(sampleRegister)

    @Test func inviteRetransmitsDoublingUntilTimerB() {
        var transaction = InviteClientTransaction(request: invite, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        while let timer = clock.advance() { clock.apply(transaction.handle(.timerFired(timer))) }
        // Timer A: 0.5, 1, 2, 4, 8, 16 s apart (no T2 cap for INVITE); timer B at 64*T1 = 32 s.
        #expect(clock.sendTimes == [0, 500, 1500, 3500, 7500, 15500, 31500].map { Duration.ms($0) })
        #expect(clock.now == .seconds(32))
        #expect(clock.reported == [.timedOut, .terminated])
        #expect(transaction.state == .terminated)
    }

    @Test func inviteOverReliableTransportNeverRetransmits() {
        var transaction = InviteClientTransaction(request: invite, reliable: true)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        #expect(clock.running == [.b])
        while let timer = clock.advance() { clock.apply(transaction.handle(.timerFired(timer))) }
        #expect(clock.sendTimes == [.zero])
        #expect(clock.reported == [.timedOut, .terminated])
    }

    @Test func provisionalStopsRetransmissionAndFinalErrorIsAcked() throws {
        var transaction = InviteClientTransaction(request: invite, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        let ringing = response(180, to: invite)
        clock.apply(transaction.handle(.received(ringing)))
        #expect(transaction.state == .proceeding)
        #expect(clock.running == [.b])
        let busy = response(486, to: invite)
        let actions = transaction.handle(.received(busy))
        clock.apply(actions)
        #expect(transaction.state == .completed)
        let ack = try #require(actions.compactMap { action -> SIPMessage? in
            if case .send(let message) = action { return message }
            return nil
        }.first)
        #expect(ack.method == .ack)
        #expect(ack.requestURI == invite.requestURI)
        #expect(try ack.cseq() == CSeq(1, .ack))
        #expect(try ack.to().tag == "b1")
        #expect(try ack.topVia().branch == "z9hG4bKinvite1")
        #expect(try ack.callID() == invite.callID())
        #expect(clock.running == [.d])
        // A retransmitted 486 is ACKed again without reaching the TU.
        #expect(transaction.handle(.received(busy)) == [.send(ack)])
        clock.apply(transaction.handle(.timerFired(.d)))
        #expect(transaction.state == .terminated)
        #expect(clock.reported == [.deliver(ringing), .deliver(busy), .terminated])
        #expect(clock.now == .zero)
    }

    @Test func successEndsTheInviteTransaction() {
        var transaction = InviteClientTransaction(request: invite, reliable: false)
        _ = transaction.start()
        let ok = response(200, to: invite)
        #expect(transaction.handle(.received(ok)) == [.cancelTimer(.a), .cancelTimer(.b), .deliver(ok), .terminated])
    }

    @Test func nonInviteRetransmitsCappedAtT2UntilTimerF() {
        var transaction = NonInviteClientTransaction(request: register, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        while let timer = clock.advance() { clock.apply(transaction.handle(.timerFired(timer))) }
        #expect(clock.sendTimes == [0, 500, 1500, 3500, 7500, 11500, 15500, 19500, 23500, 27500, 31500].map { Duration.ms($0) })
        #expect(clock.reported == [.timedOut, .terminated])
    }

    @Test func nonInviteInProceedingRetransmitsEveryT2() {
        var transaction = NonInviteClientTransaction(request: register, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        clock.apply(transaction.handle(.received(response(100, to: register))))
        while let timer = clock.advance() { clock.apply(transaction.handle(.timerFired(timer))) }
        #expect(Array(clock.sendTimes.prefix(4)) == [0, 500, 4500, 8500].map { Duration.ms($0) })
    }

    @Test func nonInviteFinalResponseWaitsTimerKThenEnds() {
        var transaction = NonInviteClientTransaction(request: register, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        // The first transmission is lost: one retransmission, then the 200.
        let fired = clock.advance()!
        clock.apply(transaction.handle(.timerFired(fired)))
        let ok = response(200, to: register)
        clock.apply(transaction.handle(.received(ok)))
        #expect(clock.running == [.k])
        #expect(transaction.handle(.received(ok)).isEmpty)
        let timer = clock.advance()
        #expect(timer == .k)
        #expect(clock.now == .ms(5500))
        clock.apply(transaction.handle(.timerFired(.k)))
        #expect(clock.reported == [.deliver(ok), .terminated])
        #expect(clock.sendTimes.count == 2)
    }

    @Test func nonInviteOverReliableTransportEndsOnTheFinalResponse() {
        var transaction = NonInviteClientTransaction(request: register, reliable: true)
        _ = transaction.start()
        let ok = response(200, to: register)
        #expect(transaction.handle(.received(ok)) == [.cancelTimer(.e), .cancelTimer(.f), .deliver(ok), .terminated])
    }

    @Test func transportErrorIsReported() {
        var transaction = NonInviteClientTransaction(request: register, reliable: false)
        _ = transaction.start()
        #expect(transaction.handle(.transportError).contains(.transportFailed))
        #expect(transaction.state == .terminated)
    }
}
