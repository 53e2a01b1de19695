import IntercomConfig
import IntercomTestSupport
import Testing

/// Property test: random documents, written in varied but valid TOML spellings by a small emitter kept
/// here (independent of the parser), parse back to the same values, with keys on the expected lines.
@Suite("TOML round trip")
struct TOMLRoundTripTests {
    @Test func randomDocumentsParseBackToTheirValues() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<150 {
            var generator = TOMLDocumentGenerator(random: random)
            let expected = generator.table(depth: 0)
            var emitter = TOMLTestEmitter(random: generator.random)
            emitter.emitSections(expected, path: [])
            random = emitter.random
            let text = emitter.lines.joined(separator: emitter.useCRLF ? "\r\n" : "\n")
            let parsed: TOMLTable
            do {
                parsed = try tomlParse(text)
            } catch {
                Issue.record("\(error)\n\(text)")
                continue
            }
            #expect(parsed.tomlPlain.sortedKeys == expected.sortedKeys, "\(text)")
            for (key, line) in emitter.rootKeyLines {
                #expect(parsed[key]?.keyLocation?.line == line, "key \(key) in\n\(text)")
            }
        }
    }
}

extension TOMLPlainValue {
    /// Tables with keys sorted, since the emitter writes scalars before sub-tables.
    var sortedKeys: TOMLPlainValue {
        switch self {
        case .array(let elements):
            return .array(elements.map(\.sortedKeys))
        case .table(let keys, let values):
            let pairs = zip(keys, values).sorted { $0.0 < $1.0 }
            return .table(keys: pairs.map(\.0), values: pairs.map(\.1.sortedKeys))
        default:
            return self
        }
    }
}

/// Random values: every scalar kind, awkward keys and strings, nested tables and arrays of tables.
private struct TOMLDocumentGenerator {
    var random: SplitMix64

    init(random: SplitMix64) {
        self.random = random
    }

    static let keys = ["a", "b_c", "d-e", "12", "with space", "dot.ted", "", "é", "quote\"d", "tab\tkey", "x"]
    static let strings = [
        "", "plain", "with \"quotes\"", "back\\slash", "new\nline", "tab\t", "bell\u{7}", "del\u{7F}", "ünï 😀",
        "'single'", "''' triple", "\"\"\" triple", "trailing quote\"", "\r\n",
    ]
    static let dates = ["1979-05-27T07:32:00Z", "1979-05-27 07:32:00.5+01:30", "2024-02-29", "23:59:59.999"]
    static let integers: [Int64] = [0, 1, -1, 42, Int64.max, Int64.min, 1_000_000]
    static let floats: [Double] = [0.5, -2.25, 1e-7, 6.02e23, .infinity, -.infinity, 1.7976931348623157e308, 3]

    mutating func pick<T>(_ values: [T]) -> T { values[random.below(values.count)] }

    mutating func scalar() -> TOMLPlainValue {
        switch random.below(5) {
        case 0: .string(pick(Self.strings))
        case 1: .integer(pick(Self.integers))
        case 2: .float(pick(Self.floats))
        case 3: .boolean(random.below(2) == 0)
        default: .dateTime(pick(Self.dates))
        }
    }

    mutating func value(depth: Int) -> TOMLPlainValue {
        guard depth < 3 else { return scalar() }
        switch random.below(8) {
        case 0: return .array((0..<random.below(4)).map { _ in value(depth: depth + 1) })
        case 1: return table(depth: depth + 1)
        case 2: return .array((0..<1 + random.below(3)).map { _ in table(depth: depth + 1) })
        default: return scalar()
        }
    }

    mutating func table(depth: Int) -> TOMLPlainValue {
        var keys: [String] = []
        var values: [TOMLPlainValue] = []
        for _ in 0..<random.below(5) {
            let key = pick(Self.keys)
            if keys.contains(key) { continue }
            keys.append(key)
            values.append(value(depth: depth))
        }
        return .table(keys: keys, values: values)
    }
}

/// Writes values as TOML, choosing at random between equivalent spellings.
private struct TOMLTestEmitter {
    var random: SplitMix64
    private(set) var lines: [String] = []
    /// The line the next appended text starts on.
    private var nextLine = 1
    var rootKeyLines: [String: Int] = [:]
    let useCRLF: Bool

    init(random: SplitMix64) {
        var random = random
        useCRLF = random.below(4) == 0
        self.random = random
    }

    /// Scalars and inline values first, then `[sub.tables]` and `[[arrays.of.tables]]`.
    mutating func emitSections(_ table: TOMLPlainValue, path: [String]) {
        guard case .table(let keys, let values) = table else { return }
        var deferred: [(String, TOMLPlainValue)] = []
        for (key, value) in zip(keys, values) {
            if isSection(value) && random.below(3) != 0 {
                deferred.append((key, value))
                continue
            }
            if path.isEmpty { rootKeyLines[key] = nextLine }
            append("\(Self.key(key)) = \(inline(value))" + (random.below(4) == 0 ? " # note" : ""))
        }
        for (key, value) in deferred {
            let sectionPath = path + [key]
            let header = sectionPath.map(Self.key).joined(separator: ".")
            if case .array(let elements) = value {
                for element in elements {
                    append("[[\(header)]]")
                    emitSections(element, path: sectionPath)
                }
            } else {
                if random.below(3) == 0 { append("") }
                append(random.below(2) == 0 ? "[\(header)]" : "[ \(header) ]")
                emitSections(value, path: sectionPath)
            }
        }
    }

    private mutating func append(_ text: String) {
        lines.append(text)
        nextLine += 1 + text.filter { $0 == "\n" }.count
    }

    private func isSection(_ value: TOMLPlainValue) -> Bool {
        switch value {
        case .table: return true
        case .array(let elements):
            return !elements.isEmpty && elements.allSatisfy { if case .table = $0 { true } else { false } }
        default: return false
        }
    }

    mutating func inline(_ value: TOMLPlainValue) -> String {
        switch value {
        case .string(let text): return string(text)
        case .integer(let number): return integer(number)
        case .float(let number):
            if number.isInfinite { return number < 0 ? "-inf" : (random.below(2) == 0 ? "inf" : "+inf") }
            return "\(number)"
        case .boolean(let flag): return flag ? "true" : "false"
        case .dateTime(let text): return text
        case .array(let elements):
            let items = elements.map { inline($0) }
            let trailing = !items.isEmpty && random.below(2) == 0 ? "," : ""
            if random.below(3) == 0 {
                return "[\n  " + items.joined(separator: ",\n  # comment\n  ") + trailing + "\n]"
            }
            return "[" + items.joined(separator: ", ") + trailing + "]"
        case .table(let keys, let values):
            let pairs = zip(keys, values).map { "\(Self.key($0.0)) = \(inline($0.1))" }
            return "{ " + pairs.joined(separator: ", ") + " }"
        }
    }

    private mutating func integer(_ number: Int64) -> String {
        guard number > 0 else { return String(number) }
        switch random.below(4) {
        case 0: return "0x" + String(number, radix: 16)
        case 1: return "0o" + String(number, radix: 8)
        case 2: return "+" + String(number)
        default: return String(number)
        }
    }

    private mutating func string(_ text: String) -> String {
        let isLiteralSafe = text.unicodeScalars.allSatisfy {
            $0 != "'" && $0 != "\u{7F}" && ($0.value >= 0x20 || $0 == "\t")
        }
        if isLiteralSafe && random.below(2) == 0 { return "'\(text)'" }
        if random.below(3) == 0 {
            // Multi-line basic: a leading newline is dropped; quotes are escaped so none can close early.
            return "\"\"\"\n" + Self.escaped(text, keepNewlines: true) + "\"\"\""
        }
        return "\"" + Self.escaped(text, keepNewlines: false) + "\""
    }

    static func escaped(_ text: String, keepNewlines: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n" where keepNewlines: out += "\n"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func key(_ key: String) -> String {
        let isBare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return isBare ? key : "\"" + escaped(key, keepNewlines: false) + "\""
    }
}
