import Testing
@testable import SIPCore

@Suite("rport and received on a received request (RFC 3581 §4, RFC 3261 §18.2.1)")
struct SourceStampTests {
    let request = """
        OPTIONS sip:gate@10.0.0.2 SIP/2.0\r
        Via: SIP/2.0/UDP 192.168.1.5:5060;branch=z9hG4bKabc;rport\r
        Via: SIP/2.0/UDP proxy.example;branch=z9hG4bKdef\r
        From: <sip:a@example>;tag=1\r
        To: <sip:gate@10.0.0.2>\r
        Call-ID: x\r
        CSeq: 1 OPTIONS\r
        Content-Length: 0\r
        \r

        """

    @Test("a bare rport gets the source port, a different source host is received=; the response goes there")
    func stamped() throws {
        var message = try SIPMessage(request)
        message.stampSource(host: "203.0.113.9", port: 40_001)
        let vias = try message.vias()
        #expect(vias.count == 2)
        #expect(vias[0].received == "203.0.113.9" && vias[0].rport == 40_001 && vias[0].branch == "z9hG4bKabc")
        #expect(vias[1].host == "proxy.example")
        #expect(message.responseDestination()! == ("203.0.113.9", 40_001))
        // The response copies the stamped Via (§8.2.6.2).
        let response = ResponseBuilder.response(to: message, status: 200, reason: "OK", toTag: "t")
        #expect(try response.topVia().rport == 40_001)
    }

    @Test("without rport the sent-by port is kept; the same host adds no received=")
    func withoutRport() throws {
        var message = try SIPMessage(request.replacingOccurrences(";rport", ""))
        message.stampSource(host: "192.168.1.5", port: 40_001)
        let top = try message.topVia()
        #expect(top.received == nil && top.rport == nil)
        #expect(message.responseDestination()! == ("192.168.1.5", 5060))
    }
}
