import SIPCore

/// Message text written with LF line ends in tests, sent with CRLF.
func wire(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    for byte in text.utf8 {
        if byte == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\r")) }
        out.append(byte)
    }
    return out
}

func parse(_ text: String) throws -> SIPMessage {
    try SIPMessage(datagram: wire(text))
}

/// A minimal valid INVITE from alice to bob over UDP.
let sampleInvite = """
    INVITE sip:bob@example.com SIP/2.0
    Via: SIP/2.0/UDP 192.0.2.10:5060;branch=z9hG4bKinvite1;rport
    Max-Forwards: 70
    From: "Alice" <sip:alice@example.com>;tag=a1
    To: <sip:bob@example.com>
    Call-ID: call-1@192.0.2.10
    CSeq: 1 INVITE
    Contact: <sip:alice@192.0.2.10:5060>
    Content-Length: 0


    """
