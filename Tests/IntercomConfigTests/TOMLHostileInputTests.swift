import IntercomConfig
import IntercomTestSupport
import Testing

/// Input an attacker or a broken editor could produce: every case must end in a located error, never a
/// crash, a hang or a stack overflow.
@Suite("TOML hostile input")
struct TOMLHostileInputTests {
    static let nestingMessage = "arrays and inline tables are nested too deeply (limit 128)"
    static let tableNestingMessage = "tables are nested too deeply (limit 128)"

    @Test func tenThousandOpeningBracketsInAValue() {
        let error = tomlError("a = " + String(repeating: "[", count: 10_000))
        #expect(error?.message == Self.nestingMessage)
        #expect(error?.location == tomlAt(1, 133))
    }

    @Test func nestingLimitIsExactly128Levels() throws {
        let deepest = "a = " + String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        var value = try tomlParse(deepest).tomlValue("a")
        var levels = 0
        while let elements = value?.tomlArray {
            levels += 1
            value = elements.first?.value
        }
        #expect(levels == 128)
        let tooDeep = "a = " + String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(tomlError(tooDeep)?.message == Self.nestingMessage)
    }

    @Test func deepInlineTablesAndMixedNesting() {
        #expect(tomlError("a = " + String(repeating: "{b=", count: 10_000))?.message == Self.nestingMessage)
        #expect(tomlError("a = " + String(repeating: "[{b=", count: 5_000))?.message == Self.nestingMessage)
        // Dotted keys inside inline tables count towards the same limit.
        let dotted = "a = {" + Array(repeating: "b", count: 200).joined(separator: ".") + " = 1}"
        #expect(tomlError(dotted)?.message == Self.tableNestingMessage)
    }

    @Test func deepTablesFromKeysAndHeaders() {
        let key = Array(repeating: "a", count: 10_000).joined(separator: ".")
        #expect(tomlError(key + " = 1")?.message == Self.tableNestingMessage)
        #expect(tomlError("[" + key + "]")?.message == Self.tableNestingMessage)
        #expect(tomlError("[[" + key + "]]")?.message == Self.tableNestingMessage)
        let header = Array(repeating: "a", count: 100).joined(separator: ".")
        // 100 header levels plus 100 dotted levels is over the limit as well.
        #expect(tomlError("[\(header)]\n\(header) = 1")?.message == Self.tableNestingMessage)
        #expect(tomlError(String(repeating: "[", count: 10_000))?.message == "expected a key, found '['")
        let missingEquals = tomlError(key + " 1")?.message ?? ""
        #expect(missingEquals.hasPrefix("expected '=' after key \"a.a.a."))
        #expect(missingEquals.count < 150)
    }

    @Test func arraysOfTablesCountTwoLevels() throws {
        var document = ""
        var path: [String] = []
        for _ in 0..<64 {
            path.append("t")
            document += "[[\(path.joined(separator: "."))]]\n"
        }
        _ = try tomlParse(document)
        path.append("t")
        document += "[[\(path.joined(separator: "."))]]\n"
        #expect(tomlError(document)?.message == Self.tableNestingMessage)
    }

    @Test func hugeNumbersAreShortenedInMessages() {
        let digits = String(repeating: "9", count: 100_000)
        let error = tomlError("a = \(digits)")
        #expect(error?.message == "integer \(String(repeating: "9", count: 40))… is out of range")
        #expect(tomlError("a = 1e99999999999999999999")?.message == "float 1e99999999999999999999 is out of range")
        let hex = "a = 0x" + String(repeating: "F", count: 1_000)
        #expect(tomlError(hex)?.message.hasSuffix("is out of range") == true)
        #expect(tomlError("a = \"\(String(repeating: "x", count: 50))\"\na = 1")?.message
            == #"duplicate key "a" (first defined at t.toml:1)"#)
        let longKey = String(repeating: "k", count: 50)
        #expect(tomlError("\(longKey) = 1\n\(longKey) = 2")?.message
            == "duplicate key \"\(String(repeating: "k", count: 40))…\" (first defined at t.toml:1)")
    }

    @Test(arguments: [
        ([0x61, 0x20, 0x3D, 0x20, 0x00], 1, 5),  // a = NUL
        ([0x23, 0x20, 0x00, 0x0A], 1, 3),  // # NUL
        ([0x61, 0x3D, 0x22, 0x00, 0x22], 1, 4),  // a="NUL"
        ([0x0A, 0x0A, 0x00, 0x61, 0x3D, 0x31], 3, 1),
    ] as [([UInt8], Int, Int)])
    func nulBytes(_ bytes: [UInt8], _ line: Int, _ column: Int) {
        let error = tomlError(bytes: bytes)
        #expect(error?.message == "NUL byte is not allowed")
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        ([0xFF], "0xFF"),
        ([0xC0, 0x80], "0xC0"),  // overlong NUL
        ([0xE0, 0x80, 0x80], "0xE0"),  // overlong
        ([0xED, 0xA0, 0x80], "0xED"),  // UTF-16 surrogate
        ([0xF4, 0x90, 0x80, 0x80], "0xF4"),  // above U+10FFFF
        ([0x80], "0x80"),  // continuation without a lead byte
        ([0xE2, 0x82], "0xE2"),  // truncated at the end of the file
        ([0xE2, 0x82, 0x41], "0xE2"),  // truncated by an ASCII byte
    ] as [([UInt8], String)])
    func invalidUTF8(_ sequence: [UInt8], _ byte: String) {
        let bytes = Array("a = 1\nb = \"é".utf8) + sequence + Array("\"\n".utf8)
        let error = tomlError(bytes: bytes)
        #expect(error?.message == "invalid UTF-8 (byte \(byte))")
        #expect(error?.location == tomlAt(2, 7))
    }

    @Test func validMultibyteUTF8Passes() throws {
        let bytes = Array("k = \"\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\"".utf8)
        let table = try TOMLParser.parse(bytes: bytes, file: tomlTestFile)
        #expect(table.tomlValue("k") == .string("\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}"))
    }

    @Test(arguments: [
        ("a = 1\rb = 2", 1, 6),
        ("\r", 1, 1),
        ("# comment\r", 1, 10),
        ("a = \"x\ry\"", 1, 7),
        ("a = 'x\r'", 1, 7),
        ("a = [\r1]", 1, 6),
        ("[t]\r", 1, 4),
        ("a = \"\"\"\\\r\"\"\"", 1, 9),
    ])
    func loneCarriageReturns(_ input: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == "carriage return must be followed by a line feed")
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        "a = \"", "a = '", "a = \"\"\"", "a = '''", "a = \"\"\"\n\"\"", "a = '''\n''", "a = \"\\", "a = \"\\u12",
        "a = [", "a = [1,", "a = [1", "a = {", "a = {b", "a = {b =", "a = {b = 1,", "[", "[a", "[[", "[[a", "[[a]",
        "a", "a =", "a.", "\"a", "'a", "a = [[[", "a = [{", "a = #", "a = 1979-05-27T", "a = 0x", "a = 1e",
    ])
    func unterminatedEverything(_ input: String) {
        let error = tomlError(input)
        #expect(error != nil)
        #expect(error?.location.line == 1)
    }

    /// Every prefix of a realistic document either parses or fails at a location inside the prefix.
    @Test func everyPrefixOfADocumentIsHandled() throws {
        let document = """
            # Intercom config
            title = "Front door \\u00e9"   # name shown to callers
            [backend]
            url = 'https://example.org/parse'
            retry = { initial = 0.5, max = 30, jitter = true }
            [[gpio.button]]
            line = 17
            pins = [ 1, 0x1F, 0o7, 0b1, -2_000, +inf,
                     1979-05-27T07:32:00Z ]
            note = \"\"\"
              multi \\
              line\"\"\"
            raw = '''
            C:\\x'''
            """
        _ = try tomlParse(document)
        let bytes = Array(document.utf8)
        var failures = 0
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            let lines = prefix.filter { $0 == 0x0A }.count + 1
            do {
                _ = try TOMLParser.parse(bytes: prefix, file: tomlTestFile)
            } catch {
                failures += 1
                #expect(error.location.line >= 1 && error.location.line <= lines, "\(error)")
                #expect(error.location.column >= 1, "\(error)")
            }
        }
        #expect(failures > bytes.count / 2)
    }

    /// Random short documents over the characters that matter to the grammar; a crash or hang fails the
    /// whole run, and every error must point inside the input.
    @Test func randomDocumentsNeverCrash() {
        let alphabet: [[UInt8]] = [
            "a", "b", "1", "0", "x", "e", "_", "-", "+", ".", ":", "=", " ", "\t", "\n", "\r\n", "\r", "\"", "'",
            "\"\"\"", "'''", "\\", "\\u", "[", "]", "[[", "]]", "{", "}", ",", "#", "T", "Z", "inf", "nan",
            "true", "é", "\u{0}", "\u{7F}", "1979-05-27", "07:32:00",
        ].map { Array($0.utf8) }
        var random = SplitMix64(seed: 0x1D_C0DE)
        var parsed = 0
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.below(24) {
                bytes += alphabet[random.below(alphabet.count)]
            }
            if random.below(8) == 0 { bytes.append(UInt8(random.below(256))) }
            let lines = bytes.filter { $0 == 0x0A }.count + 1
            do {
                _ = try TOMLParser.parse(bytes: bytes, file: tomlTestFile)
                parsed += 1
            } catch {
                if !(1...lines).contains(error.location.line) || error.location.column < 1 {
                    Issue.record("error outside the input: \(error) for \(bytes)")
                }
            }
        }
        #expect(parsed > 0)
    }
}
