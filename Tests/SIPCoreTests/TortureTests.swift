import SIPCore
import Testing

@Suite("RFC 4475 torture messages")
struct TortureTests {
    @Test(arguments: ValidTortureMessages.all)
    func validMessageParses(_ torture: TortureMessage) throws {
        let message = try SIPMessage(datagram: torture.bytes)
        if message.isRequest {
            try message.validateRequest()
        } else if torture.name != "bcast" {
            try message.validateResponse()
        }
    }

    @Test(arguments: InvalidTortureMessages.all)
    func invalidMessageIsRefused(_ testCase: InvalidTortureMessages.Case) {
        do {
            let message = try SIPMessage(datagram: testCase.message.bytes)
            if message.isRequest { try message.validateRequest() } else { try message.validateResponse() }
            Issue.record("\(testCase.message.name) was accepted")
        } catch {
            #expect(error.responseStatus == testCase.status, "\(testCase.message.name): \(error)")
        }
    }

    @Test func wsinvUnfoldsAndExpandsCompactForms() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.wsinv.bytes)
        #expect(message.method == .invite)
        #expect(try message.cseq() == CSeq(9, .invite))
        #expect(try message.maxForwards() == 68)
        #expect(try message.to().tag == "1918181833n")
        #expect(try message.from().tag == "98asjd8")
        #expect(try message.from().displayName == #""J Rosenberg \\\"""#)
        let vias = try message.vias()
        #expect(vias.map(\.host) == ["192.0.2.2", "spindle.example.com", "192.168.255.111"])
        #expect(vias.map(\.transport) == ["UDP", "TCP", "UDP"])
        #expect(vias[1].branch == "z9hG4bK9ikj8")
        #expect(vias[2].branch == "z9hG4bK30239")
        #expect(vias[0].parameters.contains(named: "rport"))
        #expect(message.values("NewFangledHeader") == ["newfangled value continued newfangled value"])
        #expect(message.values("Subject") == [""])
        let contact = try #require(try message.contacts().first)
        #expect(contact.parameters.value("q") == .some("0.33"))
        #expect(contact.parameters.value("secondparam") == .some(nil))
        #expect(try message.routeSet(SIPHeaderName.route).first?.uri.isLooseRouter == true)
        #expect(message.body.count == 150)
    }

    @Test func dblreqKeepsOnlyTheFirstMessage() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.dblreq.bytes)
        #expect(message.method == .register)
        #expect(message.body.isEmpty)
    }

    @Test func intmethKeepsTheUnusualMethodAndURI() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.intmeth.bytes)
        #expect(message.method?.rawValue == "!interesting-Method0123456789_*+`.%indeed'~")
        let uri = try #require(message.requestURI)
        #expect(uri.user == "1_unusual.URI~(to-be!sure)&isn't+it$/crazy?,/;;*")
        #expect(uri.password == "&it+has=1,weird!*pas$wo~d_too.(doesn't-it)")
        #expect(uri.host == "example.com")
    }

    @Test func semiuriUserPartHoldsASemicolon() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.semiuri.bytes)
        #expect(message.requestURI?.user == "user;par=u%40example.net")
        #expect(message.requestURI?.parameters.isEmpty == true)
        #expect(message.listValues("Accept").count == 6)
    }

    @Test func transportsListsEveryVia() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.transports.bytes)
        #expect(try message.vias().map(\.transport) == ["UDP", "SCTP", "TLS", "UNKNOWN", "TCP"])
    }

    @Test func noreasonHasAnEmptyReasonPhrase() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.noreason.bytes)
        #expect(message.startLine == .response(status: 100, reason: ""))
    }

    @Test func mismatch01IsAnsweredWithAnExplaining400() throws {
        let message = try SIPMessage(datagram: InvalidTortureMessages.mismatch01.bytes)
        do {
            try message.validateRequest()
            Issue.record("mismatch01 was accepted")
        } catch {
            let refusal = ResponseBuilder.refusal(of: message, for: error, toTag: "t")
            #expect(refusal.startLine == .response(status: 400, reason: "Bad Request - CSeq Method Mismatch"))
            #expect(try refusal.cseq() == CSeq(8, .invite))
            #expect(try refusal.to().tag == "t")
        }
    }

    @Test func bcastIsDiscardedForItsSecondVia() throws {
        let message = try SIPMessage(datagram: ValidTortureMessages.bcast.bytes)
        #expect(throws: SIPError.multipleViasInResponse) { try message.validateResponse() }
    }

    @Test(arguments: ValidTortureMessages.all)
    func serializedMessageParsesBackEqual(_ torture: TortureMessage) throws {
        let message = try SIPMessage(datagram: torture.bytes)
        let again = try SIPMessage(datagram: message.serialized())
        #expect(again.startLine == message.startLine)
        #expect(again.body == message.body)
        let withoutLength = { (headers: [SIPHeader]) in headers.filter { $0.name != SIPHeaderName.contentLength } }
        #expect(withoutLength(again.headers) == withoutLength(message.headers))
    }
}
