import Foundation
import SIPCore
import Testing
@testable import SIPTransport

/// Incoming calls on the real `sip` thread against a scripted caller on the loopback (RFC 3261 §13.3, §9.2,
/// §15): each test's script runs on the caller's thread and waits for what it expects, never for a fixed time.
@Suite("SIP user agent: incoming calls on the loopback")
struct SIPUserAgentCallTests {
    /// Starts an agent calling into `caller` and runs `script` on the caller's thread; stops the agent after.
    /// Scripts check with `#require`: an `#expect` on that thread belongs to no test, a thrown failure reaches it.
    private func withCall(_ script: @escaping @Sendable (ScriptedCaller, SIPUserAgent, CallEventLog) throws -> Void) async throws {
        let caller = try ScriptedCaller()
        let log = CallEventLog()
        let agent = SIPUserAgent.calling(caller, log: log)
        agent.start()
        try await caller.run { caller in
            try caller.waitUntil("the agent's port") { agent.localPort != 0 }
            caller.agentPort = UInt16(agent.localPort)
            try script(caller, agent, log)
        }
        await agent.stop()
    }

    @Test("INVITE, 100, ring 180, answer 200 retransmitted until the ACK, confirmed, re-INVITE, peer BYE ends it")
    func answeredCall() async throws {
        try await withCall { caller, agent, log in
            try caller.send(caller.invite())
            try caller.expect("100 Trying", isResponse(100, .invite))
            // A retransmitted INVITE is absorbed by the transaction: 100 again, no second `.invited`.
            try caller.send(caller.invite())
            try caller.expect("100 Trying again", isResponse(100, .invite))
            let invited = log.all.compactMap { if case .invited(let invite) = $0 { invite } else { nil } }
            try #require(invited == [SIPIncomingInvite(
                callID: caller.callID, fromURI: "sip:alice@127.0.0.1:\(caller.port)", fromUser: "alice",
                displayName: #"Alice "A""#, offer: ScriptedCaller.offer, sourceHost: "127.0.0.1")])

            agent.ring(callID: caller.callID)
            let ringing = try caller.expect("180 Ringing", isResponse(180, .invite))
            let tag = try #require(try ringing.to().tag)
            try #require(ringing.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.localPort)>"])

            agent.answer(callID: caller.callID, sdp: ScriptedCaller.answer)
            let ok = try caller.expect("200 OK", isResponse(200, .invite))
            try #require(try ok.to().tag == tag)
            try #require(String(decoding: ok.body, as: UTF8.self) == ScriptedCaller.answer)
            try #require(ok.values(SIPHeaderName.contentType) == ["application/sdp"])
            try #require(ok.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.localPort)>"])
            try #require(try ok.topVia().rport == caller.port)
            // No ACK yet: the 2xx comes again (T1 = 50 ms here), identical.
            let again = try caller.expect("the 200 retransmitted", isResponse(200, .invite))
            try #require(again == ok)
            try #require(!log.all.contains(.confirmed(callID: caller.callID)))

            try caller.send(caller.request("ACK", cseq: 1, branch: "ack1", toTag: true))
            try caller.waitUntil(".confirmed") { log.contains(.confirmed(callID: caller.callID)) }
            // Flush what was sent before the ACK (one socket, in order), then the INVITE once more: its
            // transaction is gone, the call answers it with the same 2xx, and it is no new call.
            try caller.send(caller.request("OPTIONS", cseq: 5, branch: "opt1"))
            try caller.expect("200 to OPTIONS", isResponse(200, .options))
            caller.inbox.removeAll()
            try caller.send(caller.invite())
            try #require(try caller.expect("the 2xx again", isResponse(200, .invite)) == ok)

            // A session refresh: the same SDP again, then its ACK is absorbed.
            try caller.send(caller.request("INVITE", cseq: 2, branch: "reinv", toTag: true, body: ScriptedCaller.offer))
            let refreshed = try caller.expect("200 to the re-INVITE") { isResponse(200, .invite)($0) && (try? $0.cseq().number) == 2 }
            try #require(refreshed.body == ok.body)
            try caller.send(caller.request("ACK", cseq: 2, branch: "ack2", toTag: true))

            try caller.send(caller.request("BYE", cseq: 3, branch: "bye1", toTag: true))
            try caller.expect("200 to BYE", isResponse(200, .bye))
            try caller.waitUntil(".ended(bye)") { log.contains(.ended(callID: caller.callID, reason: .bye)) }
            try #require(log.all.filter { if case .invited = $0 { true } else { false } }.count == 1)
            try #require(log.all.filter { $0 == .confirmed(callID: caller.callID) }.count == 1)
        }
    }

    @Test("CANCEL before the answer: 200 to the CANCEL, 487 to the INVITE, .cancelled; an unknown CANCEL gets 481")
    func cancelledCall() async throws {
        try await withCall { caller, agent, log in
            try caller.send(caller.request("CANCEL", cseq: 1, branch: "nothing"))
            try caller.expect("481 to a CANCEL of nothing", isResponse(481, .cancel))

            try caller.send(caller.invite())
            try caller.expect("100 Trying", isResponse(100, .invite))
            agent.ring(callID: caller.callID)
            let ringing = try caller.expect("180 Ringing", isResponse(180, .invite))
            try caller.send(caller.request("CANCEL", cseq: 1, branch: "inv1"))
            try caller.expect("200 to CANCEL", isResponse(200, .cancel))
            let terminated = try caller.expect("487 to the INVITE", isResponse(487, .invite))
            try #require(try terminated.to().tag == ringing.to().tag)
            try caller.send(caller.request("ACK", cseq: 1, branch: "inv1", toTag: true))
            try caller.waitUntil(".cancelled") { log.contains(.cancelled(callID: caller.callID)) }
            // Too late: the call is gone.
            agent.answer(callID: caller.callID, sdp: ScriptedCaller.answer)
            try caller.send(caller.request("BYE", cseq: 2, branch: "bye1", toTag: true))
            try caller.expect("481 to BYE after the cancel", isResponse(481, .bye))
            try #require(!caller.inbox.contains(where: isResponse(200, .invite)))
        }
    }

    @Test("hangup of a confirmed call: BYE to the caller's Contact with the dialog's Call-ID, tags and CSeq")
    func deviceHangsUp() async throws {
        try await withCall { caller, agent, log in
            try caller.send(caller.invite())
            try caller.waitUntil(".invited") { !log.all.isEmpty }
            agent.answer(callID: caller.callID, sdp: ScriptedCaller.answer)
            let ok = try caller.expect("200 OK", isResponse(200, .invite))
            try caller.send(caller.request("ACK", cseq: 1, branch: "ack1", toTag: true))
            try caller.waitUntil(".confirmed") { log.contains(.confirmed(callID: caller.callID)) }

            agent.hangup(callID: caller.callID)
            let bye = try caller.expect("BYE") { $0.method == .bye }
            try #require(bye.requestURI == SIPURI(user: "alice", host: "127.0.0.1", port: caller.port))
            try #require(try bye.callID() == caller.callID)
            try #require(try bye.from().tag == ok.to().tag)
            try #require(try bye.to().tag == caller.fromTag)
            try #require(try bye.cseq() == CSeq(1, .bye))
            let answer = ResponseBuilder.response(to: bye, status: 200, reason: "OK")
            try caller.socket.send(answer.serialized(), to: SIPSocketAddress.resolve(host: "127.0.0.1", port: Int(agent.localPort), datagram: true))
            // The call is gone: a BYE from the caller now matches no dialog.
            try caller.send(caller.request("BYE", cseq: 2, branch: "bye2", toTag: true))
            try caller.expect("481 to BYE after the hangup", isResponse(481, .bye))
            try #require(!log.all.contains { if case .ended = $0 { true } else { false } })
        }
    }

    @Test("refuse(486): 486 with the To tag, the caller's ACK absorbed (no more 486); a malformed INVITE gets 400")
    func refusedCall() async throws {
        try await withCall { caller, agent, log in
            try caller.send(caller.invite())
            try caller.waitUntil(".invited") { !log.all.isEmpty }
            agent.refuse(callID: caller.callID, status: 486, reason: "Busy Here")
            let busy = try caller.expect("486", isResponse(486, .invite))
            try #require(try busy.to().tag != nil)
            try caller.send(caller.request("ACK", cseq: 1, branch: "inv1", toTag: true))
            // OPTIONS after the ACK: once its 200 is here the ACK was handled (one socket, in order).
            try caller.send(caller.request("OPTIONS", cseq: 2, branch: "opt1"))
            try caller.expect("200 to OPTIONS", isResponse(200, .options))
            caller.inbox.removeAll()
            // Timer G would resend the 486 after 50, 100, 200 ms if the ACK had not stopped it.
            try caller.collect(for: .milliseconds(400))
            try #require(!caller.inbox.contains(where: isResponse(486, .invite)))
            try #require(log.all.count == 1)

            // No Call-ID: refused with 400 before any transaction.
            let malformed = caller.request("INVITE", cseq: 1, branch: "bad").replacingOccurrences(of: "Call-ID: \(caller.callID)\r\n", with: "")
            try caller.send(malformed)
            try caller.expect("400", isResponse(400, .invite))
            try #require(log.all.count == 1)
        }
    }

    @Test("a caller that vanished (ICMP port unreachable for the 2xx) ends the call with .transport")
    func callerGone() async throws {
        try await withCall { caller, agent, log in
            var callID = ""
            do {
                let ghost = try ScriptedCaller()
                ghost.agentPort = caller.agentPort
                callID = ghost.callID
                try ghost.send(ghost.invite())
                try ghost.waitUntil(".invited") { !log.all.isEmpty }
                agent.answer(callID: callID, sdp: ScriptedCaller.answer)
                try ghost.expect("200 OK", isResponse(200, .invite))
            }
            // The ghost's socket is closed: the next 2xx retransmission comes back as ICMP port unreachable.
            try caller.waitUntil(".ended(transport)") {
                log.all.contains { if case .ended(callID, .transport) = $0 { true } else { false } }
            }
        }
    }

    @Test("no ACK within 64*T1: the 2xx is retransmitted, then BYE and .ended(noAck)")
    func noAck() async throws {
        try await withCall { caller, agent, log in
            try caller.send(caller.invite())
            try caller.waitUntil(".invited") { !log.all.isEmpty }
            agent.answer(callID: caller.callID, sdp: ScriptedCaller.answer)
            let bye = try caller.expect("BYE after timer H", within: .seconds(10)) { $0.method == .bye }
            try #require(try bye.callID() == caller.callID)
            try #require(caller.inbox.filter(isResponse(200, .invite)).count >= 5)
            try caller.waitUntil(".ended(noAck)") { log.contains(.ended(callID: caller.callID, reason: .noAck)) }
        }
    }
}

/// Two calls at once and the agent's stop (RFC 3261 §15: BYE for the established call, 480 for the pending one).
@Suite("SIP user agent: two calls and stop")
struct SIPUserAgentStopCallTests {
    @Test("a second INVITE gets its own .invited; stop sends BYE to the answered call and 480 to the pending one")
    func stopEndsCalls() async throws {
        let first = try ScriptedCaller()
        let second = try ScriptedCaller()
        let log = CallEventLog()
        let agent = SIPUserAgent.calling(first, log: log)
        agent.start()
        try await first.run { first in
            try first.waitUntil("the agent's port") { agent.localPort != 0 }
            first.agentPort = UInt16(agent.localPort)
            second.agentPort = first.agentPort
            try first.send(first.invite())
            try first.waitUntil(".invited") { !log.all.isEmpty }
            agent.answer(callID: first.callID, sdp: ScriptedCaller.answer)
            try first.expect("200 OK", isResponse(200, .invite))
            try first.send(first.request("ACK", cseq: 1, branch: "ack1", toTag: true))
            try first.waitUntil(".confirmed") { log.contains(.confirmed(callID: first.callID)) }

            try second.send(second.invite())
            try second.expect("100 Trying to the second call", isResponse(100, .invite))
            // The transaction sends 100 before it hands the INVITE on: the event may follow the 100.
            try first.waitUntil("the second .invited") { log.all.count == 3 }
            let invited = log.all.compactMap { if case .invited(let invite) = $0 { invite.callID } else { nil } }
            try #require(invited == [first.callID, second.callID])
        }
        async let stopped: Void = agent.stop()
        try await first.run { first in
            let bye = try first.expect("BYE on stop") { $0.method == .bye }
            try #require(try bye.callID() == first.callID)
            try second.expect("480 on stop", isResponse(480, .invite))
        }
        await stopped
    }
}

@Suite("SIP user agent: call details")
struct SIPCallDetailTests {
    @Test("a quoted display name loses its quotes and backslash escapes; a token name stays")
    func unquotedDisplayName() {
        #expect(SIPUserAgentLoop.unquoted(#""Alice \"A\"""#) == #"Alice "A""#)
        #expect(SIPUserAgentLoop.unquoted(#""a\\b""#) == #"a\b"#)
        #expect(SIPUserAgentLoop.unquoted("Gate 3") == "Gate 3")
        #expect(SIPUserAgentLoop.unquoted(#""""#) == "")
    }
}
