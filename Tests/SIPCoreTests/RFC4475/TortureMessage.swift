import Testing

/// One RFC 4475 test message, transcribed with LF line ends; `bytes` puts the CRLFs of the wire back.
struct TortureMessage: Sendable, CustomTestStringConvertible {
    /// The RFC's short name (its §3 headings give each message one, e.g. "wsinv").
    let name: String
    let text: String

    var testDescription: String { name }

    init(_ name: String, _ text: String) {
        self.name = name
        self.text = text
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n") { out.append(UInt8(ascii: "\r")) }
            out.append(byte)
        }
        return out
    }
}

/// The SDP body RFC 4475 reuses in several INVITEs: 150 bytes with CRLF line ends.
let tortureSDP = """
    v=0
    o=mhandley 29739 7272939 IN IP4 192.0.2.3
    s=-
    c=IN IP4 192.0.2.4
    t=0 0
    m=audio 49217 RTP/AVP 0 12
    m=video 3227 RTP/AVP 31
    a=rtpmap:31 LPC

    """
