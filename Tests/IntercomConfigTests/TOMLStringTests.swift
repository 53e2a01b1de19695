import IntercomConfig
import Testing

@Suite("TOML strings")
struct TOMLStringTests {
    @Test(arguments: [
        (#"a = "plain""#, "plain"),
        (#"a = "tab\there""#, "tab\there"),
        (#"a = "\b\t\n\f\r\"\\""#, "\u{08}\t\n\u{0C}\r\"\\"),
        (#"a = "\u00E9\u00e9""#, "éé"),
        (#"a = "\U0001F600""#, "😀"),
        (#"a = "\u0000""#, "\u{0}"),
        ("a = \"real\ttab\"", "real\ttab"),
        (#"a = "ünïcödé 日本""#, "ünïcödé 日本"),
        (#"a = ''"#, ""),
        (#"a = 'C:\Users\nodejs\templates'"#, #"C:\Users\nodejs\templates"#),
        (#"a = '<\i\c*\s*>'"#, #"<\i\c*\s*>"#),
        (#"a = 'Tom "Dubs" Preston'"#, #"Tom "Dubs" Preston"#),
        (#"a = """""""#, ""),
        (#"a = ''''''"#, ""),
    ])
    func singleLineAndEmptyStrings(_ input: String, _ expected: String) throws {
        #expect(try tomlParse(input).tomlValue("a") == .string(expected))
    }

    @Test(arguments: [
        // The line break right after the opening delimiter is dropped.
        ("a = \"\"\"\nRoses\nViolets\"\"\"", "Roses\nViolets"),
        ("a = \"\"\"\r\nRoses\r\nViolets\"\"\"", "Roses\nViolets"),
        ("a = \"\"\"\n\nx\"\"\"", "\nx"),
        // Line-ending backslash trims whitespace and line breaks up to the next character.
        ("a = \"\"\"\nThe quick \\\n\n\n    brown \\\n   fox\"\"\"", "The quick brown fox"),
        ("a = \"\"\"\\\n    x \\   \n\t  \r\n  y\\\n  \"\"\"", "x y"),
        // Up to two quotes may precede the closing delimiter.
        ("a = \"\"\"\"This,\" she said\"\"\"\"", "\"This,\" she said\""),
        ("a = \"\"\"x\"\"\"\"\"", "x\"\""),
        ("a = \"\"\"a \"\" b\"\"\"", "a \"\" b"),
        ("a = \"\"\"esc \\\"\\\"\\\" ok\"\"\"", "esc \"\"\" ok"),
        ("a = \"\"\"tab\tand \\u00E9\"\"\"", "tab\tand é"),
        ("a = '''\nfirst\n  second \\n'''", "first\n  second \\n"),
        ("a = '''\r\nx\r\ny'''", "x\ny"),
        ("a = ''''That,' she said'''", "'That,' she said"),
        ("a = '''x'''''", "x''"),
    ])
    func multilineStrings(_ input: String, _ expected: String) throws {
        #expect(try tomlParse(input).tomlValue("a") == .string(expected))
    }

    @Test(arguments: [
        (#"a = "\q""#, #"invalid escape \q in string"#, 6),
        (#"a = "ok \x41""#, #"invalid escape \x in string"#, 9),
        (#"a = "\e""#, #"invalid escape \e in string"#, 6),
        (#"a = "\ ""#, #"invalid escape: '\' followed by a space in string"#, 6),
        ("a = \"\"\"\\ x\"\"\"", #"invalid escape: '\' followed by a space in string"#, 8),
        (#"a = "\u12""#, #"escape \u needs exactly 4 hex digits"#, 6),
        (#"a = "\U0001F60""#, #"escape \U needs exactly 8 hex digits"#, 6),
        (#"a = "\uD800""#, #"escape \uD800 is not a Unicode scalar value"#, 6),
        (#"a = "\UFFFFFFFF""#, #"escape \UFFFFFFFF is not a Unicode scalar value"#, 6),
        (#"a = "\U00110000""#, #"escape \U00110000 is not a Unicode scalar value"#, 6),
    ])
    func invalidEscapes(_ input: String, _ message: String, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(1, column))
    }

    @Test(arguments: [
        "a = \"x\u{01}\"", "a = 'x\u{1F}'", "a = \"x\u{7F}\"", "a = \"\"\"x\u{08}\"\"\"", "a = '''\u{0B}'''",
        "a = \"x\u{0}\"",
    ])
    func controlCharactersAreRejected(_ input: String) {
        #expect(tomlError(input)?.message.hasPrefix("control character U+00") == true)
    }

    @Test func loneCarriageReturnInMultilineStringIsRejected() {
        #expect(tomlError("a = \"\"\"x\ry\"\"\"")?.message == "carriage return must be followed by a line feed")
        #expect(tomlError("a = '''x\ry'''")?.location == tomlAt(1, 9))
    }

    @Test(arguments: [
        ("a = \"abc", "unterminated string", 5),
        ("a = 'abc", "unterminated string", 5),
        ("a = \"abc\nb = 1", "unterminated string (use \"\"\" for a string that spans lines)", 5),
        ("a = 'abc\r\n", "unterminated string (use ''' for a string that spans lines)", 5),
        ("a = \"\"\"abc\n\n", "unterminated multi-line string", 5),
        ("a = '''abc''", "unterminated multi-line string", 5),
        ("a = \"abc\\", "unterminated string", 5),
        ("a = \"\"\"x\\", "unterminated multi-line string", 5),
        ("a = \"\"\"\"\"\"\"\"\"", "too many quotes in a row in a multi-line string", 8),
    ])
    func unterminatedStrings(_ input: String, _ message: String, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(1, column))
    }
}
