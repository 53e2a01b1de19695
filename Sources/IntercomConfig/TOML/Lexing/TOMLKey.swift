/// A key as written: `a."b c".d` is three parts, each with the location of its first character.
struct TOMLKey {
    struct Part {
        var name: String
        var location: SourceLocation
    }

    /// Never empty: the reader only builds keys from at least one part.
    private(set) var parts: [Part]

    init(first: Part) {
        parts = [first]
    }

    mutating func append(_ part: Part) {
        parts.append(part)
    }

    var last: Part { parts[parts.count - 1] }

    /// Every part but the last: the tables a dotted key or header walks through.
    var parents: ArraySlice<Part> { parts.dropLast() }

    /// The first `count` parts as TOML would spell them, for messages: `server."bind address"`.
    func display(prefix count: Int) -> String {
        TOMLDisplay.shortened(
            parts.prefix(count).map { TOMLDisplay.keyPart($0.name) }.joined(separator: "."),
            to: TOMLDisplay.maximumPathLength
        )
    }

    var display: String { display(prefix: parts.count) }
}
