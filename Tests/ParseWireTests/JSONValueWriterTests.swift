import Foundation
import Testing
import ParseWire

/// `jsonText()` replaced `JSONEncoder` for every reply and stored row: it must write the same bytes.
@Suite struct JSONValueWriterTests {
    private func foundation(_ value: JSONValue) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(arguments: [
        0, -0.0, 50, 0.1, 1e-7, 1e15, 1e16, 1e20, 1e21, 47.123456789, 2.5e-300, 1.7976931348623157e308,
        9007199254740992, 123456780000000, -3.25, 5e-324,
    ] as [Double])
    func writesNumbersAsJSONEncoderDoes(_ number: Double) throws {
        #expect(JSONValue.number(number).jsonText() == (try foundation(.number(number))))
    }

    @Test func writesStringsAndKeysAsJSONEncoderDoes() throws {
        let value: JSONValue = [
            "b": "a\u{1}b\u{7f}\u{2028}é/\"\\\n\r\t\u{8}\u{c}\u{1f}😀", "a": [true, false, nil, [:], []],
            "B": ["__type": "GeoPoint", "latitude": 50.5, "longitude": -7], "é": 4, "a b": "", "_": 7,
        ]
        #expect(value.jsonText() == (try foundation(value)))
        #expect(try JSONValue.parse(value.jsonBytes(), limit: .max) == value)
    }

    @Test func writesRandomDocumentsAsJSONEncoderDoes() throws {
        var random = SeededRandom(seed: 7)
        for _ in 0..<300 {
            let value = Self.document(depth: 0, &random)
            #expect(value.jsonText() == (try foundation(value)))
        }
    }

    @Test func writesNonFiniteNumbersAsNull() {
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).jsonText() == "[null,null]")
    }

    private static func document(depth: Int, _ random: inout SeededRandom) -> JSONValue {
        switch Int(random.next() % (depth > 3 ? 4 : 6)) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF) * (random.next() % 2 == 0 ? 1 : -1))
        case 3: return .string(text(&random))
        case 4: return .array((0..<Int(random.next() % 4)).map { _ in document(depth: depth + 1, &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 5) { members[text(&random)] = document(depth: depth + 1, &random) }
            return .object(members)
        }
    }

    private static func text(_ random: inout SeededRandom) -> String {
        let alphabet = Array("aZ_ 0/\"\\\n\t\u{1}\u{7f}é😀\u{2028}")
        return String((0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }
}
