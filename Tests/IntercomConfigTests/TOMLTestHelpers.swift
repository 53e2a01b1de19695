import IntercomConfig
import Testing

/// The file name every TOML test document is parsed as.
let tomlTestFile = "t.toml"

func tomlParse(_ text: String) throws(TOMLParseError) -> TOMLTable {
    try TOMLParser.parse(text, file: tomlTestFile)
}

/// The error a document produces, or nil (and a recorded issue) when it parses.
func tomlError(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> TOMLParseError? {
    do {
        _ = try tomlParse(text)
        Issue.record("expected an error for \(text.debugDescription)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The error raw bytes produce, or nil (and a recorded issue) when they parse.
func tomlError(bytes: [UInt8], sourceLocation: Testing.SourceLocation = #_sourceLocation) -> TOMLParseError? {
    do {
        _ = try TOMLParser.parse(bytes: bytes, file: tomlTestFile)
        Issue.record("expected an error for bytes \(bytes.prefix(40))", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// A location in the test file.
func tomlAt(_ line: Int, _ column: Int) -> IntercomConfig.SourceLocation {
    IntercomConfig.SourceLocation(file: tomlTestFile, line: line, column: column)
}

extension TOMLTable {
    /// The node at a dotted path of plain key names (no quoting), walking only through tables.
    func tomlNode(_ path: String...) -> TOMLNode? {
        var table = self
        for (offset, key) in path.enumerated() {
            guard let node = table[key] else { return nil }
            if offset == path.count - 1 { return node }
            guard case .table(let next) = node.value else { return nil }
            table = next
        }
        return nil
    }

    func tomlValue(_ path: String...) -> TOMLValue? {
        var table = self
        for (offset, key) in path.enumerated() {
            guard let node = table[key] else { return nil }
            if offset == path.count - 1 { return node.value }
            guard case .table(let next) = node.value else { return nil }
            table = next
        }
        return nil
    }
}

extension TOMLValue {
    var tomlTable: TOMLTable? {
        if case .table(let table) = self { return table }
        return nil
    }

    var tomlArray: [TOMLNode]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var tomlString: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The value without locations, for comparing structure. Tables keep their key order.
    var tomlPlain: TOMLPlainValue {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .float(let number): .float(number)
        case .boolean(let flag): .boolean(flag)
        case .dateTime(let text): .dateTime(text)
        case .array(let elements): .array(elements.map(\.value.tomlPlain))
        case .table(let table): table.tomlPlain
        }
    }
}

extension TOMLTable {
    var tomlPlain: TOMLPlainValue {
        .table(keys: keys, values: keys.map { self[$0]?.value.tomlPlain ?? .string("<missing>") })
    }
}

/// `TOMLValue` minus locations, so tests can compare whole documents with a literal.
indirect enum TOMLPlainValue: Equatable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    case dateTime(String)
    case array([TOMLPlainValue])
    case table(keys: [String], values: [TOMLPlainValue])

    static func table(_ pairs: KeyValuePairs<String, TOMLPlainValue>) -> TOMLPlainValue {
        .table(keys: pairs.map(\.key), values: pairs.map(\.value))
    }
}
