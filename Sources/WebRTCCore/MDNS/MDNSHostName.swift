/// A `.local` host name as browsers put it in ICE candidates instead of their address
/// (draft-ietf-mmusic-mdns-ice-candidates §3.1.1: a UUID followed by `.local`), kept lowercased because
/// DNS names compare case-insensitively (RFC 1035 §2.3.3) and mDNS answers may spell them either way.
public struct MDNSHostName: Sendable, Hashable, CustomStringConvertible {
    /// The labels, lowercased, `local` last.
    public let labels: [String]

    /// Accepts `name.local` and `name.local.` whose labels are 1…63 letters, digits and hyphens
    /// (RFC 952/1123 host names, which is all a browser uses), 255 bytes at most in wire form.
    public init(_ text: String) throws(MDNSError) {
        var trimmed = Substring(text)
        if trimmed.hasSuffix(".") { trimmed = trimmed.dropLast() }
        let labels = trimmed.split(separator: ".", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard labels.count >= 2, labels.last == "local",
              labels.allSatisfy({ label in
                  (1...63).contains(label.utf8.count)
                      && label.utf8.allSatisfy { $0 == UInt8(ascii: "-") || ($0 < 0x80 && Self.isAlphanumeric($0)) }
              }),
              labels.reduce(1, { $0 + $1.utf8.count + 1 }) <= 255
        else { throw .notALocalName(text) }
        self.labels = labels
    }

    init(uncheckedLabels labels: [String]) {
        self.labels = labels.map { $0.lowercased() }
    }

    /// Whether `text` ends in `.local` (what makes a candidate address a name to resolve at all).
    public static func looksLocal(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasSuffix(".local") || lowered.hasSuffix(".local.")
    }

    public var description: String { labels.joined(separator: ".") }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
