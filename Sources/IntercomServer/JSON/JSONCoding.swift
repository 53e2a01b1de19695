import Foundation

/// Reading and writing JSON bodies. Output keys are sorted so responses and stored rows are byte-stable.
enum JSONCoding {
    /// Why a body is not JSON, in the words of the decoder (parse-server sends the parser's message).
    struct Malformed: Error {
        let message: String
    }

    static func decode(_ bytes: some Collection<UInt8>) throws(Malformed) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch let DecodingError.dataCorrupted(context) {
            let detail = (context.underlyingError as NSError?)?.localizedDescription ?? context.debugDescription
            throw Malformed(message: "Invalid JSON: \(detail)")
        } catch {
            throw Malformed(message: "Invalid JSON")
        }
    }

    static func decode(_ text: String) throws(Malformed) -> JSONValue {
        try decode(Array(text.utf8))
    }

    static func encode(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail except for non-finite numbers, which nothing here produces
        // (decoded JSON has none and computed distances are finite); fall back to null rather than crash.
        return (try? Array(encoder.encode(value))) ?? Array("null".utf8)
    }

    static func encodeString(_ value: JSONValue) -> String {
        String(decoding: encode(value), as: UTF8.self)
    }
}
