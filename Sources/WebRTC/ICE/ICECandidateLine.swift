import WebRTCCore

/// Candidate attribute spelling between signaling and libnice (RFC 8839 §5.1).
///
/// Browsers trickle `candidate:…` (no `a=`), our SDP model keeps the value after `candidate:`, and
/// libnice 0.1.21 both emits and insists on `a=candidate:…` (`nice_agent_parse_remote_candidate_sdp`
/// returns NULL without the prefix).
enum ICECandidateLine {
    /// The line libnice parses: any of the three spellings becomes `a=candidate:…`; nil for text that is
    /// not a candidate at all (empty, or another attribute).
    static func forLibnice(_ line: String) -> String? {
        var text = Substring(line)
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        if text.hasPrefix("a=") { text = text.dropFirst(2) }
        if text.hasPrefix("candidate:") { text = text.dropFirst("candidate:".count) }
        guard let first = text.first, first.isLetter || first.isNumber else { return nil }
        return "a=candidate:" + text
    }

    /// The first RFC 8839 §5.1 field that is wrong in a `forLibnice` line, or nil. Only the fields libnice
    /// reads leniently are checked here; libnice's parser judges the rest.
    static func grammarProblem(_ libniceLine: String) -> String? {
        let fields = libniceLine.dropFirst("a=candidate:".count).split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 8 else { return "fewer than 8 fields" }
        guard (1 ... 32).contains(fields[0].count), fields[0].allSatisfy(isICEChar) else { return "foundation" }
        guard isDigits(fields[1], maxCount: 3) else { return "component-id" }
        guard isDigits(fields[3], maxCount: 10), UInt32(fields[3]) != nil else { return "priority" }
        guard isDigits(fields[5], maxCount: 5), let port = Int(fields[5]), port <= 65535 else { return "port" }
        guard fields[6] == "typ" else { return "typ" }
        guard ["host", "srflx", "prflx", "relay"].contains(fields[7]) else { return "cand-type" }
        return nil
    }

    /// RFC 8445 §15.1 `ice-char`: ALPHA / DIGIT / "+" / "/".
    private static func isICEChar(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "+" || character == "/")
    }

    private static func isDigits(_ text: Substring, maxCount: Int) -> Bool {
        (1 ... maxCount).contains(text.count) && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// The connection-address field (RFC 8839 §5.1) when it is an mDNS `.local` name, which must be resolved
    /// before libnice can use the candidate; nil for an IP address or a line that is not a candidate.
    static func mdnsName(_ line: String) -> String? {
        guard let libnice = forLibnice(line) else { return nil }
        let fields = libnice.dropFirst("a=candidate:".count).split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count > 4, MDNSHostName.looksLocal(String(fields[4])) else { return nil }
        return String(fields[4])
    }

    /// `line` in libnice's spelling with its connection address replaced by `address`.
    static func replacingConnectionAddress(_ line: String, with address: String) -> String? {
        guard let libnice = forLibnice(line) else { return nil }
        var fields = libnice.dropFirst("a=candidate:".count).split(separator: " ", omittingEmptySubsequences: true)
            .map(String.init)
        guard fields.count > 4 else { return nil }
        fields[4] = address
        return "a=candidate:" + fields.joined(separator: " ")
    }

    /// What we signal: libnice's `a=candidate:…` without the `a=`.
    static func forSignaling(_ libniceLine: String) -> String {
        libniceLine.hasPrefix("a=") ? String(libniceLine.dropFirst(2)) : libniceLine
    }
}
