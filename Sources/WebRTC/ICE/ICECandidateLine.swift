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

    /// What we signal: libnice's `a=candidate:…` without the `a=`.
    static func forSignaling(_ libniceLine: String) -> String {
        libniceLine.hasPrefix("a=") ? String(libniceLine.dropFirst(2)) : libniceLine
    }
}
