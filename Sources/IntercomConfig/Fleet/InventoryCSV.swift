/// RFC 4180 CSV as installers write it: a header line, comma-separated fields, optional double quotes
/// (with `""` for a quote), CRLF or LF. Each row keeps its 1-based line number for error messages.
public struct InventoryCSV: Sendable {
    public struct Row: Sendable, Equatable {
        public var line: Int
        public var fields: [String: String]
    }

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var header: [String]
    public var rows: [Row]
    /// Rows that could not be read as records (wrong field count), each naming its line.
    public var malformedRows: [ParseError]

    public init(text: String) throws(ParseError) {
        var records: [(line: Int, fields: [String])] = []
        var field = ""
        var fields: [String] = []
        var inQuotes = false
        var line = 1
        var recordLine = 1
        var characters = Array(text.unicodeScalars)[...]
        if characters.first == "\u{FEFF}" { characters = characters.dropFirst() }
        var index = characters.startIndex
        func endRecord() {
            fields.append(field)
            field = ""
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
        }
        while index < characters.endIndex {
            let character = characters[index]
            index = characters.index(after: index)
            if inQuotes {
                if character == "\"" {
                    if index < characters.endIndex, characters[index] == "\"" {
                        field.unicodeScalars.append("\"")
                        index = characters.index(after: index)
                    } else {
                        inQuotes = false
                    }
                } else {
                    if character == "\n" { line += 1 }
                    field.unicodeScalars.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty: inQuotes = true
            case "\"": throw ParseError(line: line, message: "a quote inside an unquoted field; quote the whole field")
            case ",":
                fields.append(field)
                field = ""
            case "\r": continue
            case "\n":
                endRecord()
                line += 1
                recordLine = line
            default: field.unicodeScalars.append(character)
            }
        }
        if inQuotes { throw ParseError(line: recordLine, message: "unterminated quoted field") }
        endRecord()

        guard let headerRecord = records.first else { throw ParseError(line: 1, message: "the file is empty") }
        header = headerRecord.fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        var seen = Set<String>()
        for name in header where !seen.insert(name).inserted {
            throw ParseError(line: headerRecord.line, message: "column \"\(name)\" appears twice in the header")
        }
        rows = []
        malformedRows = []
        for record in records.dropFirst() {
            guard record.fields.count == header.count else {
                malformedRows.append(ParseError(
                    line: record.line, message: "expected \(header.count) fields like the header, got \(record.fields.count)"))
                continue
            }
            var values: [String: String] = [:]
            for (name, value) in zip(header, record.fields) { values[name] = value.trimmingCharacters(in: .whitespaces) }
            rows.append(Row(line: record.line, fields: values))
        }
    }
}

import Foundation
