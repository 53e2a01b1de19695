import IntercomConfig
import Testing

@Suite("TOML integers and floats")
struct TOMLNumberTests {
    @Test(arguments: [
        ("+99", 99), ("42", 42), ("0", 0), ("-17", -17), ("+0", 0), ("-0", 0),
        ("1_000", 1000), ("5_349_221", 5_349_221), ("53_49_221", 5_349_221), ("1_2_3_4_5", 12345),
        ("0xDEADBEEF", 0xDEAD_BEEF), ("0xdeadbeef", 0xDEAD_BEEF), ("0xdead_beef", 0xDEAD_BEEF), ("0x00ff", 255),
        ("0o01234567", 0o1234567), ("0o755", 0o755), ("0b11010110", 0b1101_0110), ("0b0_1", 1),
        ("9223372036854775807", Int64.max), ("-9223372036854775808", Int64.min),
        ("0x7FFFFFFFFFFFFFFF", Int64.max), ("0o777777777777777777777", Int64.max),
    ] as [(String, Int64)])
    func integers(_ text: String, _ expected: Int64) throws {
        #expect(try tomlParse("a = \(text)").tomlValue("a") == .integer(expected))
    }

    @Test(arguments: [
        ("99999999999999999999", "integer 99999999999999999999 is out of range"),
        ("9223372036854775808", "integer 9223372036854775808 is out of range"),
        ("-9223372036854775809", "integer -9223372036854775809 is out of range"),
        ("0x8000000000000000", "integer 0x8000000000000000 is out of range"),
        ("0xFFFFFFFFFFFFFFFFFF", "integer 0xFFFFFFFFFFFFFFFFFF is out of range"),
        ("01", "invalid number 01 (leading zeros are not allowed)"),
        ("-007", "invalid number -007 (leading zeros are not allowed)"),
        ("0_0", "invalid number 0_0 (leading zeros are not allowed)"),
        ("1__000", "invalid number 1__000 (an underscore must sit between digits)"),
        ("1_", "invalid number 1_ (an underscore must sit between digits)"),
        ("_1", "invalid number _1"),
        ("0x", "invalid number 0x"),
        ("0x_1", "invalid number 0x_1"),
        ("0xG", "invalid number 0xG"),
        ("0o8", "invalid number 0o8"),
        ("0b2", "invalid number 0b2"),
        ("0X1F", "invalid number 0X1F"),
        ("+0x1", "invalid number +0x1 (no sign allowed before 0x)"),
        ("-0b1", "invalid number -0b1 (no sign allowed before 0b)"),
        ("1-2", "invalid number 1-2"),
        ("++1", "invalid number ++1"),
        ("-", "invalid number -"),
    ])
    func invalidIntegers(_ text: String, _ message: String) {
        let error = tomlError("a = \(text)")
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(1, 5))
    }

    @Test(arguments: [
        ("+1.0", 1.0), ("3.1415", 3.1415), ("-0.01", -0.01), ("5e+22", 5e22), ("1e06", 1e6), ("-2E-2", -0.02),
        ("6.626e-34", 6.626e-34), ("224_617.445_991_228", 224_617.445_991_228), ("1e1_0", 1e10), ("0.0", 0),
        ("-0.0", -0.0), ("+0.0", 0), ("0e0", 0), ("1.7976931348623157e308", 1.7976931348623157e308),
        ("1e-400", 0), ("inf", .infinity), ("+inf", .infinity), ("-inf", -.infinity),
    ] as [(String, Double)])
    func floats(_ text: String, _ expected: Double) throws {
        #expect(try tomlParse("a = \(text)").tomlValue("a") == .float(expected))
    }

    @Test func negativeZeroKeepsItsSign() throws {
        guard case .float(let value) = try tomlParse("a = -0.0").tomlValue("a") else {
            Issue.record("not a float")
            return
        }
        #expect(value.sign == .minus)
    }

    @Test(arguments: ["nan", "+nan", "-nan"])
    func notANumber(_ text: String) throws {
        guard case .float(let value) = try tomlParse("a = \(text)").tomlValue("a") else {
            Issue.record("not a float")
            return
        }
        #expect(value.isNaN)
    }

    @Test(arguments: [
        ("1e309", "float 1e309 is out of range"),
        ("-1.8e308", "float -1.8e308 is out of range"),
        ("1.", "invalid number 1."),
        (".7", "invalid number .7"),
        ("7.e3", "invalid number 7.e3"),
        ("3.e+20", "invalid number 3.e+20"),
        ("1e", "invalid number 1e"),
        ("1e+", "invalid number 1e+"),
        ("1e_5", "invalid number 1e_5"),
        ("1_.5", "invalid number 1_.5 (an underscore must sit between digits)"),
        ("1._5", "invalid number 1._5"),
        ("1.5_", "invalid number 1.5_ (an underscore must sit between digits)"),
        ("03.14", "invalid number 03.14 (leading zeros are not allowed)"),
        ("1.2.3", "invalid number 1.2.3"),
        ("1e2e3", "invalid number 1e2e3"),
        ("infinity", "invalid value infinity (strings need quotes)"),
        ("NaN", "invalid value NaN (strings need quotes)"),
        ("inf_", "invalid value inf_ (strings need quotes)"),
    ])
    func invalidFloats(_ text: String, _ message: String) {
        let error = tomlError("a = \(text)")
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(1, 5))
    }

    @Test func booleansAndUnquotedWords() throws {
        let table = try tomlParse("t = true\nf = false")
        #expect(table.tomlValue("t") == .boolean(true))
        #expect(table.tomlValue("f") == .boolean(false))
        #expect(tomlError("a = True")?.message == "invalid value True (booleans are lowercase: true or false)")
        #expect(tomlError("a = yes")?.message == "invalid value yes (strings need quotes)")
        #expect(tomlError("a = truex")?.message == "invalid value truex (strings need quotes)")
    }
}
