import SIPCore
import Testing

@Suite("Dialogs (RFC 3261 §12)")
struct DialogTests {
    let invite = try! parse(sampleInvite)

    func ok(recordRoute: [String]) -> SIPMessage {
        var ok = ResponseBuilder.response(to: invite, status: 200, reason: "OK", toTag: "b1")
        ok.addHeader(SIPHeaderName.contact, "<sip:bob@192.0.2.20:5062>")
        for route in recordRoute { ok.addHeader(SIPHeaderName.recordRoute, route) }
        return ok
    }

    let nextVia = Via(transport: "UDP", host: "192.0.2.10", port: 5060, parameters: [SIPParameter("branch", "z9hG4bKnext")])

    @Test func uacDialogFromTwoHundred() throws {
        let dialog = try Dialog(uacRequest: invite, response: ok(recordRoute: ["<sip:p1.example.com;lr>, <sip:p2.example.com;lr>"]))
        #expect(dialog.id == DialogID(callID: "call-1@192.0.2.10", localTag: "a1", remoteTag: "b1"))
        #expect(dialog.remoteTarget == (try SIPURI("sip:bob@192.0.2.20:5062")))
        #expect(dialog.routeSet.map(\.uri.host) == ["p2.example.com", "p1.example.com"])
        #expect(dialog.localSequence == 1)
        #expect(dialog.remoteSequence == nil)
    }

    @Test func byeUsesTheRemoteTargetRouteSetAndNextCSeq() throws {
        var dialog = try Dialog(uacRequest: invite, response: ok(recordRoute: ["<sip:p1.example.com;lr>", "<sip:p2.example.com;lr>"]))
        let bye = dialog.makeRequest(.bye, via: nextVia)
        #expect(bye.requestURI == (try SIPURI("sip:bob@192.0.2.20:5062")))
        #expect(try bye.cseq() == CSeq(2, .bye))
        #expect(try bye.to().tag == "b1")
        #expect(try bye.from().tag == "a1")
        #expect(try bye.callID() == "call-1@192.0.2.10")
        #expect(try bye.routeSet(SIPHeaderName.route).map(\.uri.host) == ["p2.example.com", "p1.example.com"])
        try bye.validateRequest()
    }

    @Test func strictRouterBecomesTheRequestURI() throws {
        var dialog = try Dialog(uacRequest: invite, response: ok(recordRoute: ["<sip:strict.example.com>"]))
        let bye = dialog.makeRequest(.bye, via: nextVia)
        #expect(bye.requestURI?.host == "strict.example.com")
        #expect(try bye.routeSet(SIPHeaderName.route).map(\.uri.host) == ["192.0.2.20"])
    }

    @Test func ackForTwoHundredKeepsTheInviteCSeq() throws {
        let dialog = try Dialog(uacRequest: invite, response: ok(recordRoute: []))
        let ack = dialog.makeAck(inviteSequence: 1, via: nextVia)
        #expect(ack.method == .ack)
        #expect(try ack.cseq() == CSeq(1, .ack))
        #expect(dialog.localSequence == 1)
        try ack.validateRequest()
    }

    @Test func uasDialogAndCSeqOrdering() throws {
        let withRoutes = try parse(sampleInvite.replacingOccurrences(
            "Content-Length: 0", "Record-Route: <sip:p1.example.com;lr>, <sip:p2.example.com;lr>\nContent-Length: 0"))
        var dialog = try Dialog(uasRequest: withRoutes, localTag: "b1")
        #expect(dialog.id == DialogID(callID: "call-1@192.0.2.10", localTag: "b1", remoteTag: "a1"))
        #expect(dialog.routeSet.map(\.uri.host) == ["p1.example.com", "p2.example.com"])
        #expect(dialog.remoteTarget.host == "192.0.2.10")
        let bye = try parse(sampleInvite
            .replacingOccurrences("INVITE sip:", "BYE sip:").replacingOccurrences("1 INVITE", "2 BYE")
            .replacingOccurrences("To: <sip:bob@example.com>", "To: <sip:bob@example.com>;tag=b1"))
        #expect(try dialog.receive(bye) == .accept)
        #expect(try dialog.receive(bye) == .outOfOrder)
        #expect(dialog.remoteSequence == 2)
        // Our own BYE from the UAS side: From is the callee.
        let ours = dialog.makeRequest(.bye, via: nextVia)
        #expect(try ours.from().uri.user == "bob")
        #expect(try ours.cseq().number == 1)
    }

    @Test func unknownDialogGets481AndStrayACKIsDropped() throws {
        var table = DialogTable()
        let dialog = try Dialog(uacRequest: invite, response: ok(recordRoute: []))
        table.insert(dialog)
        let tagged = { (method: String, fromTag: String) in
            try parse(sampleInvite
                .replacingOccurrences("INVITE sip:", "\(method) sip:").replacingOccurrences("1 INVITE", "5 \(method)")
                .replacingOccurrences("tag=a1", "tag=\(fromTag)")
                .replacingOccurrences("To: <sip:bob@example.com>", "To: <sip:bob@example.com>;tag=a1"))
        }
        // Requests from bob to alice: To tag a1 (ours), From tag b1 (bob's).
        #expect(try table.route(tagged("BYE", "b1")) == .dialog(dialog.id))
        guard case .reject(let response?) = try table.route(tagged("BYE", "zz")) else {
            Issue.record("no 481")
            return
        }
        #expect(response.statusCode == 481)
        #expect(try table.route(tagged("ACK", "zz")) == .reject(nil))
        #expect(try table.route(invite) == .outOfDialog)
    }
}
