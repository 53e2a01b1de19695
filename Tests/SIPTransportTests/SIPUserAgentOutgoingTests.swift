import Foundation
import SIPCore
import Testing
@testable import SIPTransport

/// Calls the agent places (RFC 3261 §13.2) on the real `sip` thread, against the scripted peer as registrar
/// and callee on the loopback. Scripts run on the peer's thread and check with `#require`.
@Suite("SIP user agent: outgoing calls on the loopback")
struct SIPUserAgentOutgoingTests {
    private let callID = "out-\(UInt32.random(in: 0...UInt32.max))@gate"

    private func withCallee(password: String? = nil,
                            _ script: @escaping @Sendable (ScriptedCaller, SIPUserAgent, CallEventLog) throws -> Void) async throws {
        let peer = try ScriptedCaller()
        let log = CallEventLog()
        let agent = SIPUserAgent.calling(peer, log: log, password: password)
        agent.start()
        try await peer.run { peer in
            try peer.waitUntil("the agent's port") { agent.localPort != 0 }
            peer.agentPort = UInt16(agent.localPort)
            try script(peer, agent, log)
        }
        await agent.stop()
    }

    @Test("INVITE → 401 → INVITE with credentials → 180 → 200 → ACK (again for the retransmitted 200) → hangup sends BYE")
    func answeredAfterChallenge() async throws {
        let callID = callID
        try await withCallee(password: "secret") { peer, agent, log in
            try agent.invite(callID: callID, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let first = try peer.expect("INVITE", isRequest(.invite))
            try #require(first.requestURI?.serialized == "sip:reception@127.0.0.1")
            try #require(try first.callID() == callID)
            try #require(try first.to().tag == nil)
            let fromTag = try #require(try first.from().tag)
            try #require(try first.from().uri.serialized == "sip:gate@127.0.0.1")
            try #require(first.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.localPort)>"])
            try #require(String(decoding: first.body, as: UTF8.self) == ScriptedCaller.offer)
            try #require(first.values(SIPHeaderName.contentType) == ["application/sdp"])

            try peer.reply(first, 401, "Unauthorized", toTag: "c401", extra: [ScriptedCaller.challenge])
            // The transaction ACKs the 401 (§17.1.1.3), then the TU sends a new INVITE (§22.2).
            let ack401 = try peer.expect("ACK of the 401", isRequest(.ack, cseq: 1))
            try #require(try ack401.topVia().branch == first.topVia().branch)
            let second = try peer.expect("INVITE with credentials", isRequest(.invite, cseq: 2))
            try #require(try second.callID() == callID && second.from().tag == fromTag)
            try #require(try second.topVia().branch != first.topVia().branch)
            let authorization = try #require(second.values(SIPHeaderName.authorization).first)
            try #require(authorization.contains(#"username="gate""#) && authorization.contains(#"uri="sip:reception@127.0.0.1""#))
            try #require(authorization.contains(#"nonce="n0nce""#) && authorization.contains("qop=auth"))

            try peer.reply(second, 100, "Trying")
            try peer.reply(second, 180, "Ringing", toTag: "callee")
            try peer.waitUntil(".progress(ringing)") { log.contains(.progress(callID: callID, ringing: true)) }
            try peer.reply(second, 200, "OK", toTag: "callee", extra: peer.calleeHeaders, body: ScriptedCaller.answer)
            let ack = try peer.expect("ACK of the 200", isRequest(.ack, cseq: 2))
            try #require(try ack.to().tag == "callee" && ack.from().tag == fromTag)
            try #require(ack.requestURI?.serialized == "sip:reception@127.0.0.1:\(peer.port)")
            try #require(try ack.topVia().branch != second.topVia().branch)
            try peer.waitUntil(".accepted") { log.contains(.accepted(callID: callID, answer: ScriptedCaller.answer)) }

            // The 200 again (our ACK lost): the same ACK again (§13.2.2.4), no second event.
            try peer.reply(second, 200, "OK", toTag: "callee", extra: peer.calleeHeaders, body: ScriptedCaller.answer)
            try #require(try peer.expect("the ACK again", isRequest(.ack, cseq: 2)) == ack)

            agent.hangup(callID: callID)
            let bye = try peer.expect("BYE", isRequest(.bye, cseq: 3))
            try #require(try bye.to().tag == "callee" && bye.from().tag == fromTag && bye.callID() == callID)
            try #require(bye.requestURI?.serialized == "sip:reception@127.0.0.1:\(peer.port)")
            try peer.reply(bye, 200, "OK")
            try #require(log.all.filter { if case .accepted = $0 { true } else { false } }.count == 1)
            try #require(!log.all.contains { if case .rejected = $0 { true } else { false } })
        }
    }

    @Test("486: .rejected(486, Busy Here) and the transaction's ACK")
    func busy() async throws {
        let callID = callID
        try await withCallee { peer, agent, log in
            try agent.invite(callID: callID, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let invite = try peer.expect("INVITE", isRequest(.invite))
            try peer.reply(invite, 183, "Session Progress", toTag: "busy")
            try peer.waitUntil(".progress(183)") { log.contains(.progress(callID: callID, ringing: false)) }
            try peer.reply(invite, 486, "Busy Here", toTag: "busy")
            let ack = try peer.expect("ACK of the 486", isRequest(.ack, cseq: 1))
            try #require(try ack.to().tag == "busy")
            try peer.waitUntil(".rejected") { log.contains(.rejected(callID: callID, status: 486, reason: "Busy Here")) }
        }
    }

    @Test("401 without a password configured is .rejected(401); a challenge to the answered INVITE is too")
    func challengeRefused() async throws {
        let callID = callID
        try await withCallee { peer, agent, log in
            try agent.invite(callID: callID, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let invite = try peer.expect("INVITE", isRequest(.invite))
            try peer.reply(invite, 401, "Unauthorized", toTag: "c", extra: [ScriptedCaller.challenge])
            try peer.waitUntil(".rejected(401)") { log.contains(.rejected(callID: callID, status: 401, reason: "Unauthorized")) }
        }
        let second = "\(callID)-2"
        try await withCallee(password: "wrong") { peer, agent, log in
            try agent.invite(callID: second, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let first = try peer.expect("INVITE", isRequest(.invite, cseq: 1))
            try peer.reply(first, 401, "Unauthorized", toTag: "c", extra: [ScriptedCaller.challenge])
            let retry = try peer.expect("INVITE with credentials", isRequest(.invite, cseq: 2))
            try peer.reply(retry, 401, "Unauthorized", toTag: "c", extra: [ScriptedCaller.challenge])
            try peer.waitUntil(".rejected(401)") { log.contains(.rejected(callID: second, status: 401, reason: "Unauthorized")) }
        }
    }

    @Test("hangup before any provisional: CANCEL only after the 180 (§9.1), then 487 ends it without an event")
    func cancelled() async throws {
        let callID = callID
        try await withCallee { peer, agent, log in
            try agent.invite(callID: callID, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let invite = try peer.expect("INVITE", isRequest(.invite))
            agent.hangup(callID: callID)
            try peer.collect(for: .milliseconds(300))
            try #require(!peer.inbox.contains { $0.method == .cancel })
            try peer.reply(invite, 180, "Ringing", toTag: "ring")
            let cancel = try peer.expect("CANCEL", isRequest(.cancel, cseq: 1))
            try #require(try cancel.topVia().branch == invite.topVia().branch)
            try #require(try cancel.to().tag == nil && cancel.callID() == callID)
            try peer.reply(cancel, 200, "OK", toTag: "ring")
            try peer.reply(invite, 487, "Request Terminated", toTag: "ring")
            try peer.expect("ACK of the 487", isRequest(.ack, cseq: 1))
            try peer.collect(for: .milliseconds(200))
            // The coordinator hung up: no progress after it, no .rejected for the 487.
            try #require(!log.all.contains { if case .rejected = $0 { true } else { false } })
        }
    }

    @Test("the callee's BYE in the confirmed dialog: 200 and .ended(bye)")
    func calleeHangsUp() async throws {
        let callID = callID
        try await withCallee { peer, agent, log in
            try agent.invite(callID: callID, to: "sip:reception@127.0.0.1", offer: ScriptedCaller.offer)
            let invite = try peer.expect("INVITE", isRequest(.invite))
            try peer.reply(invite, 200, "OK", toTag: "callee", extra: peer.calleeHeaders, body: ScriptedCaller.answer)
            let ack = try peer.expect("ACK", isRequest(.ack))
            let fromTag = try #require(try ack.from().tag)
            let bye = [
                "BYE sip:gate@127.0.0.1:\(agent.localPort) SIP/2.0",
                "Via: SIP/2.0/UDP 127.0.0.1:\(peer.port);branch=z9hG4bKbye1;rport",
                "Max-Forwards: 70",
                "From: <sip:reception@127.0.0.1>;tag=callee",
                "To: <sip:gate@127.0.0.1>;tag=\(fromTag)",
                "Call-ID: \(callID)",
                "CSeq: 1 BYE",
                "Content-Length: 0",
            ].joined(separator: "\r\n") + "\r\n\r\n"
            try peer.send(bye)
            try peer.expect("200 to BYE", isResponse(200, .bye))
            try peer.waitUntil(".ended(bye)") { log.contains(.ended(callID: callID, reason: .bye)) }
        }
    }

    @Test("a target that is not a SIP URI throws before anything is sent")
    func malformedTarget() throws {
        let agent = SIPUserAgent.calling(try ScriptedCaller(), log: CallEventLog())
        #expect(throws: SIPError.self) { try agent.invite(callID: "x", to: "mailto:reception@example", offer: "") }
        #expect(throws: SIPError.self) { try agent.invite(callID: "x", to: "sip:", offer: "") }
    }
}
