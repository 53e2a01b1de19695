import SIPCore
import Testing

@Suite("Server transactions (RFC 3261 §17.2)")
struct ServerTransactionTests {
    let invite = try! parse(sampleInvite)
    let register = try! parse(sampleRegister)

    @Test func inviteServerSendsTryingAndDeliversTheRequest() throws {
        var transaction = InviteServerTransaction(request: invite, reliable: false)
        let actions = transaction.start()
        guard case .send(let trying) = actions.first else {
            Issue.record("no 100 Trying")
            return
        }
        #expect(trying.statusCode == 100)
        #expect(try trying.to().tag == nil)
        #expect(actions.last == .deliver(invite))
        // A retransmitted INVITE gets the 100 again.
        #expect(transaction.handle(.received(invite)) == [.send(trying)])
    }

    @Test func finalErrorIsRetransmittedUntilTheACK() throws {
        var transaction = InviteServerTransaction(request: invite, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        let busy = response(486, to: invite)
        clock.apply(transaction.handle(.respond(busy)))
        #expect(clock.running == [.g, .h])
        // Timer G: 0.5, 1, 2, 4, 4 s: retransmissions at 0.5, 1.5, 3.5, 7.5, 11.5.
        for _ in 0..<5 {
            let fired = clock.advance()!
            clock.apply(transaction.handle(.timerFired(fired)))
        }
        #expect(clock.sendTimes == [0, 0, 500, 1500, 3500, 7500, 11500].map { Duration.ms($0) })
        let ack = try parse(sampleInvite.replacingOccurrences("INVITE sip:", "ACK sip:").replacingOccurrences("1 INVITE", "1 ACK"))
        clock.apply(transaction.handle(.received(ack)))
        #expect(transaction.state == .confirmed)
        #expect(clock.running == [.i])
        #expect(transaction.handle(.received(ack)).isEmpty)
        let fired = clock.advance()!
        clock.apply(transaction.handle(.timerFired(fired)))
        #expect(clock.now == .ms(16500))
        #expect(transaction.state == .terminated)
    }

    @Test func missingACKTimesOutAfterTimerH() {
        var transaction = InviteServerTransaction(request: invite, reliable: false)
        var clock = SimulatedTimers()
        clock.apply(transaction.start())
        clock.apply(transaction.handle(.respond(response(603, to: invite))))
        while let timer = clock.advance() { clock.apply(transaction.handle(.timerFired(timer))) }
        #expect(clock.now == .seconds(32))
        #expect(clock.reported.suffix(2) == [.timedOut, .terminated])
    }

    @Test func successEndsTheInviteServerTransaction() {
        var transaction = InviteServerTransaction(request: invite, reliable: true)
        _ = transaction.start()
        let ok = response(200, to: invite)
        #expect(transaction.handle(.respond(ok)) == [.send(ok), .terminated])
    }

    @Test func reliableInviteServerHasNoTimerG() {
        var transaction = InviteServerTransaction(request: invite, reliable: true)
        _ = transaction.start()
        let busy = response(486, to: invite)
        #expect(transaction.handle(.respond(busy)) == [.send(busy), .startTimer(.h, after: .seconds(32))])
    }

    @Test func nonInviteServerAbsorbsThenRepeatsItsResponse() {
        var transaction = NonInviteServerTransaction(request: register, reliable: false)
        #expect(transaction.start() == [.deliver(register)])
        #expect(transaction.handle(.received(register)).isEmpty)
        let ok = response(200, to: register)
        #expect(transaction.handle(.respond(ok)) == [.send(ok), .startTimer(.j, after: .seconds(32))])
        #expect(transaction.handle(.received(register)) == [.send(ok)])
        #expect(transaction.handle(.timerFired(.j)) == [.terminated])
    }

    @Test func reliableNonInviteServerEndsAtOnce() {
        var transaction = NonInviteServerTransaction(request: register, reliable: true)
        _ = transaction.start()
        let ok = response(200, to: register)
        #expect(transaction.handle(.respond(ok)) == [.send(ok), .terminated])
    }

    @Test func cancelMatchesTheInviteItCancels() throws {
        let cancel = CancelBuilder.cancel(for: invite)
        #expect(cancel.method == .cancel)
        #expect(cancel.requestURI == invite.requestURI)
        #expect(try cancel.cseq() == CSeq(1, .cancel))
        #expect(cancel.values(SIPHeaderName.to) == invite.values(SIPHeaderName.to))
        try cancel.validateRequest()
        #expect(try TransactionKey(cancelledBy: cancel) == TransactionKey(serverRequest: invite))
        #expect(try TransactionKey(serverRequest: cancel) != TransactionKey(serverRequest: invite))
    }

    @Test func transactionKeysFollowTheMagicCookieRules() throws {
        let serverKey = try TransactionKey(serverRequest: invite)
        let ack = try parse(sampleInvite.replacingOccurrences("INVITE sip:", "ACK sip:").replacingOccurrences("1 INVITE", "1 ACK"))
        #expect(try TransactionKey(serverRequest: ack) == serverKey)
        #expect(serverKey.sentBy == "192.0.2.10:5060")
        let clientKey = try TransactionKey(clientRequest: invite)
        #expect(try TransactionKey(clientResponse: response(180, to: invite)) == clientKey)
        #expect(try TransactionKey(clientResponse: response(200, to: register)) != clientKey)
        let old = try parse(sampleInvite.replacingOccurrences(";branch=z9hG4bKinvite1", ";branch=1234"))
        #expect(throws: SIPError.missingBranch) { try TransactionKey(serverRequest: old) }
    }
}
