import Foundation

/// Reading and writing JSON bodies. Output keys are sorted so responses and stored rows are byte-stable.
enum JSONCoding {
    /// Why a body is not JSON, in the words of the decoder (parse-server sends the parser's message).
    struct Malformed: Error {
        let message: String
    }

    /// ParseWire's strict parser (nesting bounded, no thrown error per value); the Codable path spent more
    /// than the query itself decoding the rows of a 100-row `$nearSphere` answer.
    static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> JSONValue {
        do {
            return try JSONValue.parse(bytes, limit: .max)
        } catch .notJSON(let reason) {
            throw Malformed(message: "Invalid JSON: \(reason)")
        } catch {
            throw Malformed(message: "Invalid JSON")
        }
    }

    static func decode(_ text: String) throws(Malformed) -> JSONValue {
        try decode(Array(text.utf8))
    }

    /// Compact, sorted keys, slashes unescaped: the bytes `JSONEncoder` would write (`JSONValueWriter`).
    static func encode(_ value: JSONValue) -> [UInt8] {
        value.jsonBytes()
    }

    static func encodeString(_ value: JSONValue) -> String {
        value.jsonText()
    }
}
