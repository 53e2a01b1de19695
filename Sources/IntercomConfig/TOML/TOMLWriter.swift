/// Writes a `TOMLTable` back as TOML text: scalars and arrays first, then each sub-table under its own
/// `[header]`. Used by `intercomd provision` to write device overlays; the output parses back to the same table.
public enum TOMLWriter {
    public static func write(_ table: TOMLTable) -> String {
        var output = ""
        write(table, path: [], into: &output)
        return output
    }

    private static func write(_ table: TOMLTable, path: [String], into output: inout String) {
        var subTables: [(String, TOMLTable)] = []
        var lines: [String] = []
        for key in table.keys {
            guard let node = table[key] else { continue }
            if case .table(let nested) = node.value {
                subTables.append((key, nested))
            } else {
                lines.append("\(quoteKey(key)) = \(inline(node.value))")
            }
        }
        if !lines.isEmpty || (!path.isEmpty && subTables.isEmpty) {
            if !path.isEmpty {
                if !output.isEmpty { output += "\n" }
                output += "[\(path.map(quoteKey).joined(separator: "."))]\n"
            }
            output += lines.map { $0 + "\n" }.joined()
        }
        for (key, nested) in subTables {
            write(nested, path: path + [key], into: &output)
        }
    }

    static func inline(_ value: TOMLValue) -> String {
        switch value {
        case .string(let text): return quote(text)
        case .integer(let number): return String(number)
        case .float(let number):
            if number.isNaN { return "nan" }
            if number.isInfinite { return number < 0 ? "-inf" : "inf" }
            let text = String(number)
            return text.contains(".") || text.contains("e") ? text : text + ".0"
        case .boolean(let flag): return flag ? "true" : "false"
        case .dateTime(let raw): return raw
        case .array(let elements): return "[" + elements.map { inline($0.value) }.joined(separator: ", ") + "]"
        case .table(let nested):
            let pairs = nested.keys.compactMap { key in nested[key].map { "\(quoteKey(key)) = \(inline($0.value))" } }
            return "{ " + pairs.joined(separator: ", ") + " }"
        }
    }

    static func quoteKey(_ key: String) -> String {
        let bare = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-"
        }
        return bare ? key : quote(key)
    }

    /// A basic string with the escapes TOML requires (quote, backslash, control characters).
    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16, uppercase: true)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
