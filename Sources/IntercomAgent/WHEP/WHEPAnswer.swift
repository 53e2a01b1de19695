import WebRTCCore

/// The answer a WHEP player gets: our answer SDP with the gathered candidates written into it (players such
/// as aiortc do not trickle). With BUNDLE every candidate belongs to the first bundled section (RFC 8843
/// §7.1.1, RFC 9143), so they go there, with `a=end-of-candidates` when gathering finished.
enum WHEPAnswer {
    static func withCandidates(_ answer: String, candidates: [String], complete: Bool) throws(WHEPError) -> String {
        var description: SessionDescription
        do { description = try SessionDescription(parsing: answer) } catch {
            throw .mediaFailed("our own answer does not parse: \(error)")
        }
        let bundled = description.bundleMids?.first
        guard let index = description.media.firstIndex(where: { $0.port != 0 && (bundled == nil || $0.mid == bundled) })
        else { throw .mediaFailed("the answer accepts no media section") }
        guard !candidates.isEmpty else { throw .mediaFailed("no ICE candidate was gathered") }
        description.media[index].candidates += candidates.map { $0.hasPrefix("candidate:") ? String($0.dropFirst(10)) : $0 }
        description.media[index].endOfCandidates = complete
        return description.serialized()
    }
}
