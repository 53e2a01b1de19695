import Foundation

/// Reads typed values out of one TOML table, reporting every wrong type, range or unknown key to a shared
/// problem list instead of stopping at the first. Accessors return nil when a key is absent or wrong, so the
/// caller applies its default; the problem list decides whether the configuration is valid.
final class ConfigReader {
    let path: String
    private let table: TOMLTable
    private let problems: ProblemList
    private let location: SourceLocation?
    private var consumed: Set<String> = []

    init(table: TOMLTable, path: String, problems: ProblemList, location: SourceLocation?) {
        self.table = table
        self.path = path
        self.problems = problems
        self.location = location ?? table.location
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    func contains(_ key: String) -> Bool { table[key] != nil }

    /// Whether `key` holds a string (for keys that take a string or a table).
    func isString(_ key: String) -> Bool {
        if case .string? = table[key]?.value { return true }
        return false
    }

    /// Reports a problem about `key` (or about this table when `key` is nil) at the best location known.
    func report(_ key: String?, _ message: String) {
        let node = key.flatMap { table[$0] }
        problems.add(ConfigProblem(
            keyPath: key.map(keyPath) ?? path, message: message, location: node?.keyLocation ?? node?.location ?? location
        ))
    }

    /// Reports a problem about element `index` of the array at `key`, at that element's line.
    func reportElement(_ key: String, _ index: Int, _ message: String) {
        var elementLocation: SourceLocation?
        if let node = table[key], case .array(let elements) = node.value, elements.indices.contains(index) {
            elementLocation = elements[index].location
        }
        problems.add(ConfigProblem(keyPath: "\(keyPath(key))[\(index)]", message: message,
                                   location: elementLocation ?? table[key]?.location ?? location))
    }

    private func node(_ key: String) -> TOMLNode? {
        consumed.insert(key)
        return table[key]
    }

    private func wrongType(_ key: String, expected: String, got value: TOMLValue) {
        report(key, "expected \(expected), got \(value.typeName)")
    }

    func string(_ key: String, required: Bool = false) -> String? {
        guard let node = node(key) else {
            if required { report(nil, "missing required key \"\(key)\"") }
            return nil
        }
        guard case .string(let text) = node.value else {
            wrongType(key, expected: "a string", got: node.value)
            return nil
        }
        return text
    }

    /// A non-empty string of bounded length (titles, names).
    func text(_ key: String, required: Bool = false, maxLength: Int = 200) -> String? {
        guard let value = string(key, required: required) else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty {
            report(key, "must not be empty")
            return nil
        }
        if value.count > maxLength || value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            report(key, "must be at most \(maxLength) characters without control characters")
            return nil
        }
        return trimmed
    }

    func integer(_ key: String, in range: ClosedRange<Int64>) -> Int? {
        guard let node = node(key) else { return nil }
        guard case .integer(let value) = node.value else {
            wrongType(key, expected: "an integer", got: node.value)
            return nil
        }
        guard range.contains(value) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(value)")
            return nil
        }
        return Int(value)
    }

    func float(_ key: String, in range: ClosedRange<Double>, required: Bool = false) -> Double? {
        guard let node = node(key) else {
            if required { report(nil, "missing required key \"\(key)\"") }
            return nil
        }
        let value: Double
        switch node.value {
        case .float(let number): value = number
        case .integer(let number): value = Double(number)
        default:
            wrongType(key, expected: "a number", got: node.value)
            return nil
        }
        guard value.isFinite, range.contains(value) else {
            report(key, "must be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)), got \(value)")
            return nil
        }
        return value
    }

    func bool(_ key: String) -> Bool? {
        guard let node = node(key) else { return nil }
        guard case .boolean(let value) = node.value else {
            wrongType(key, expected: "true or false", got: node.value)
            return nil
        }
        return value
    }

    func duration(_ key: String, in range: ClosedRange<Duration>) -> Duration? {
        guard let node = node(key) else { return nil }
        let parsed: Result<Duration, DurationSyntax.Failure>
        switch node.value {
        case .integer(let seconds) where seconds < 0: parsed = .failure(.negative)
        case .integer(let seconds) where seconds > 1_000_000_000: parsed = .failure(.malformed)
        case .integer(let seconds): parsed = .success(.seconds(seconds))
        case .string(let text): parsed = DurationSyntax.parse(text)
        default:
            wrongType(key, expected: "a duration such as \"30s\"", got: node.value)
            return nil
        }
        switch parsed {
        case .failure(.negative):
            report(key, "must not be negative")
            return nil
        case .failure(.malformed):
            report(key, "expected a duration such as \"500ms\", \"30s\", \"2m\" or \"1h\"")
            return nil
        case .success(let duration) where !range.contains(duration):
            report(key, "must be between \(DurationSyntax.format(range.lowerBound)) and "
                + "\(DurationSyntax.format(range.upperBound)), got \(DurationSyntax.format(duration))")
            return nil
        case .success(let duration):
            return duration
        }
    }

    /// One of a fixed set of words; a near miss gets a suggestion.
    func choice<Choice: RawRepresentable & CaseIterable>(_ key: String, as: Choice.Type = Choice.self) -> Choice?
    where Choice.RawValue == String {
        guard let word = string(key) else { return nil }
        if let value = Choice(rawValue: word) { return value }
        let allowed = Choice.allCases.map(\.rawValue)
        var message = "must be one of " + allowed.map { "\"\($0)\"" }.joined(separator: ", ") + ", got \"\(word)\""
        if let guess = Suggestion.closest(to: word, among: allowed) { message += " (did you mean \"\(guess)\"?)" }
        report(key, message)
        return nil
    }

    func stringArray(_ key: String) -> [String]? {
        guard let node = node(key) else { return nil }
        guard case .array(let elements) = node.value else {
            wrongType(key, expected: "an array of strings", got: node.value)
            return nil
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let text) = element.value else {
                problems.add(ConfigProblem(
                    keyPath: "\(keyPath(key))[\(index)]", message: "expected a string, got \(element.value.typeName)",
                    location: element.location))
                return nil
            }
            strings.append(text)
        }
        return strings
    }

    /// A URL with one of the given schemes and a host, and no embedded credentials.
    func url(_ key: String, schemes: [String], required: Bool = false) -> URL? {
        let credentialKeys = "\(keyPath("username")) and \(keyPath("password_file"))"
        guard let text = string(key, required: required) else { return nil }
        let schemeList = schemes.map { "\($0)://" }.joined(separator: " or ")
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
              let host = url.host, !host.isEmpty
        else {
            report(key, "expected a URL starting with \(schemeList) and naming a host, got \"\(text)\"")
            return nil
        }
        if url.user != nil || url.password != nil {
            report(key, "must not contain credentials; use \(credentialKeys)")
            return nil
        }
        return url
    }

    /// An array of tables (`key = [{…}, {…}]` or `[[section.key]]`), each element read by its own reader
    /// (paths `key[0]`, `key[1]`, …); a value of another type, or an element that is not a table, is reported.
    func tableArray(_ key: String) -> [ConfigReader]? {
        guard let node = node(key) else { return nil }
        guard case .array(let elements) = node.value else {
            wrongType(key, expected: "an array of tables", got: node.value)
            return nil
        }
        var readers: [ConfigReader] = []
        for (index, element) in elements.enumerated() {
            guard case .table(let nested) = element.value else {
                reportElement(key, index, "expected a table, got \(element.value.typeName)")
                return nil
            }
            readers.append(ConfigReader(table: nested, path: "\(keyPath(key))[\(index)]", problems: problems,
                                        location: nested.location ?? element.location))
        }
        return readers
    }

    /// A nested table; a value of another type is reported.
    func table(_ key: String) -> ConfigReader? {
        guard let node = node(key) else { return nil }
        guard case .table(let nested) = node.value else {
            wrongType(key, expected: "a table", got: node.value)
            return nil
        }
        return ConfigReader(table: nested, path: keyPath(key), problems: problems,
                            location: nested.location ?? node.keyLocation ?? node.location)
    }

    /// Reports every key of this table that no accessor asked for, with a suggestion for typos.
    func rejectUnknownKeys() {
        let known = Array(consumed)
        for key in table.keys where !consumed.contains(key) {
            var message = "unknown key \"\(key)\""
            if let guess = Suggestion.closest(to: key, among: known) { message += " (did you mean \"\(guess)\"?)" }
            report(key, message)
        }
    }

    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int64(number)) : String(number)
    }
}
