import SIPCore
import Testing

@Suite("SIP message parser")
struct MessageParserTests {
    @Test func compactFormsExpandToFullNames() throws {
        let message = try parse("""
            OPTIONS sip:bob@example.com SIP/2.0
            v: SIP/2.0/UDP host.example.com;branch=z9hG4bK1
            f: <sip:alice@example.com>;tag=1
            t: <sip:bob@example.com>
            i: compact@example.com
            CSeq: 1 OPTIONS
            m: <sip:alice@host.example.com>
            k: timer
            s: hello
            e: gzip
            c: text/plain
            l: 2

            hi
            """)
        #expect(message.headers.map(\.name) == [
            "Via", "From", "To", "Call-ID", "CSeq", "Contact", "Supported", "Subject", "Content-Encoding",
            "Content-Type", "Content-Length",
        ])
        #expect(try message.callID() == "compact@example.com")
        #expect(message.body == Array("hi".utf8))
    }

    @Test func viaListOnOneLineAndRepeatedLinesKeepOrder() throws {
        let message = try parse("""
            SIP/2.0 200 OK
            Via: SIP/2.0/UDP a.example.com;branch=z9hG4bKa, SIP/2.0/TCP b.example.com:5070;branch=z9hG4bKb
            Via: SIP/2.0/UDP c.example.com;branch=z9hG4bKc;received=192.0.2.7;rport=40000
            From: <sip:alice@example.com>;tag=1
            To: <sip:bob@example.com>;tag=2
            Call-ID: vias@example.com
            CSeq: 1 OPTIONS
            Content-Length: 0


            """)
        let vias = try message.vias()
        #expect(vias.map(\.host) == ["a.example.com", "b.example.com", "c.example.com"])
        #expect(vias[1].port == 5070)
        #expect(vias[2].received == "192.0.2.7")
        #expect(vias[2].rport == 40000)
    }

    @Test func bodyLongerThanContentLengthIsTruncated() throws {
        let message = try parse(sampleInvite.replacingOccurrences("Content-Length: 0", "Content-Length: 3") + "abcdef")
        #expect(message.body == Array("abc".utf8))
    }

    @Test func bodyShorterThanContentLengthIsRefused() {
        #expect(throws: SIPError.bodyShorterThanContentLength) {
            try parse(sampleInvite.replacingOccurrences("Content-Length: 0", "Content-Length: 10") + "abc")
        }
    }

    @Test func missingContentLengthTakesTheRestOfTheDatagram() throws {
        let message = try parse(sampleInvite.replacingOccurrences("Content-Length: 0\n", "") + "body")
        #expect(message.body == Array("body".utf8))
    }

    @Test func leadingEmptyLinesAreIgnored() throws {
        let message = try parse("\n\n" + sampleInvite)
        #expect(message.method == .invite)
    }

    @Test func manyEmptyLinesAreRefusedQuickly() {
        let bytes = [UInt8](repeating: UInt8(ascii: "\n"), count: SIPLimits.standard.maxMessageBytes)
        #expect(throws: SIPError.malformedStartLine) { try SIPMessage(datagram: bytes) }
    }

    @Test func limitsAreEnforced() {
        let bytes = wire(sampleInvite)
        #expect(throws: SIPError.messageTooLarge) {
            try SIPMessage(datagram: bytes, limits: SIPLimits(maxMessageBytes: 100))
        }
        #expect(throws: SIPError.tooManyHeaders) {
            try SIPMessage(datagram: bytes, limits: SIPLimits(maxHeaderCount: 3))
        }
        #expect(throws: SIPError.headerTooLong) {
            try SIPMessage(datagram: bytes, limits: SIPLimits(maxHeaderBytes: 20))
        }
    }

    @Test func telURIIsRefusedCleanly() {
        #expect(throws: SIPError.unsupportedURIScheme("tel")) {
            try parse(sampleInvite.replacingOccurrences("INVITE sip:bob@example.com", "INVITE tel:+15551234567"))
        }
        #expect(throws: SIPError.unsupportedURIScheme("tel")) { try SIPURI("tel:+15551234567") }
    }

    @Test func sipsURIWithEverything() throws {
        let uri = try SIPURI("sips:alice:secret@[2001:db8::1]:5061;transport=tcp;lr?subject=hi")
        #expect(uri.secure)
        #expect(uri.user == "alice")
        #expect(uri.password == "secret")
        #expect(uri.host == "[2001:db8::1]")
        #expect(uri.port == 5061)
        #expect(uri.transport == "tcp")
        #expect(uri.isLooseRouter)
        #expect(uri.headers == "subject=hi")
        #expect(try SIPURI(uri.serialized) == uri)
    }

    @Test func nameAddrAndAddrSpec() throws {
        let nameAddr = try NameAddress(parsing: #""Bob \"B\"" <sip:bob@example.com;transport=udp>;tag=xyz"#, header: "To")
        #expect(nameAddr.displayName == #""Bob \"B\"""#)
        #expect(nameAddr.uri.transport == "udp")
        #expect(nameAddr.tag == "xyz")
        let spec = try NameAddress(parsing: "sip:bob@example.com;tag=abc", header: "To")
        #expect(spec.uri.parameters.isEmpty)
        #expect(spec.tag == "abc")
        let tokens = try NameAddress(parsing: "Bob  Smith <sip:bob@example.com>", header: "To")
        #expect(tokens.displayName == "Bob Smith")
    }

    @Test func statusLineAndCSeq() throws {
        let message = try parse("""
            SIP/2.0 486 Busy Here
            Via: SIP/2.0/UDP a.example.com;branch=z9hG4bKa
            From: <sip:alice@example.com>;tag=1
            To: <sip:bob@example.com>;tag=2
            Call-ID: busy@example.com
            CSeq: 4711 INVITE
            Content-Length: 0


            """)
        #expect(message.startLine == .response(status: 486, reason: "Busy Here"))
        #expect(try message.cseq() == CSeq(4711, .invite))
        try message.validateResponse()
    }

    @Test(arguments: ["SIP/2.0 99 Low", "SIP/2.0 700 High", "SIP/2.0 2000 Long", "SIP/2.0 abc Text"])
    func badStatusCodesAreRefused(_ statusLine: String) {
        #expect(throws: SIPError.malformedStatusCode) { try parse(statusLine + "\nCall-ID: x\n\n") }
    }

    @Test func cseqAboveTwoToTheThirtyOneIsRefused() throws {
        let message = try parse(sampleInvite.replacingOccurrences("CSeq: 1 INVITE", "CSeq: 2147483648 INVITE"))
        #expect(throws: SIPError.malformedHeader(name: "CSeq")) { try message.cseq() }
    }

    @Test func serializerWritesCRLFAndTrueContentLength() throws {
        var message = try parse(sampleInvite)
        message.body = Array("v=0\r\n".utf8)
        message.setHeader(SIPHeaderName.contentLength, "5")
        let text = message.serializedText
        #expect(text.hasPrefix("INVITE sip:bob@example.com SIP/2.0\r\nVia: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKinvite1;rport\r\n"))
        #expect(text.hasSuffix("Content-Length: 5\r\n\r\nv=0\r\n"))
        #expect(try SIPMessage(datagram: message.serialized()) == message)
    }
}

extension String {
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
