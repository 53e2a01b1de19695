import IntercomConfig
import Testing

/// TOML 1.0 forbids defining a key or table twice and extending finished values; each error points at
/// the offending key and names the line of the first definition.
@Suite("TOML redefinition rules")
struct TOMLRedefinitionTests {
    @Test(arguments: [
        ("title = 1\ntitle = 2", #"duplicate key "title" (first defined at t.toml:1)"#, 2, 1),
        ("[a]\nb = 1\n\nb = 2", #"duplicate key "b" (first defined at t.toml:2)"#, 4, 1),
        ("spelling = 1\n\"spelling\" = 2", #"duplicate key "spelling" (first defined at t.toml:1)"#, 2, 1),
        ("a.b = 1\na . b = 2", #"duplicate key "a.b" (first defined at t.toml:1)"#, 2, 5),
        ("[a.b]\n[a]\nb = 1", #"duplicate key "b" (first defined at t.toml:1)"#, 3, 1),
        ("a = {b = 1, b = 2}", #"duplicate key "b" (first defined at t.toml:1)"#, 1, 13),
        ("\"a b\" = 1\n'a b' = 2", #"duplicate key "'a b'" (first defined at t.toml:1)"#, 2, 1),
    ])
    func duplicateKeys(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        ("[a]\n[a]", "duplicate table [a] (first defined at t.toml:1)", 2, 2),
        ("[a]\n[a.b]\n[a]", "duplicate table [a] (first defined at t.toml:1)", 3, 2),
        ("[a.b]\n[a]\n[ a ]", "duplicate table [a] (first defined at t.toml:2)", 3, 3),
        ("[[a]]\n[a.b]\n[a.b]", "duplicate table [a.b] (first defined at t.toml:2)", 3, 4),
        ("a.b = 1\n[a]", "table [a] was already created by dotted keys (first defined at t.toml:1)", 2, 2),
        (
            "[fruit]\napple.color = \"red\"\n[fruit.apple]",
            "table [fruit.apple] was already created by dotted keys (first defined at t.toml:2)", 3, 8
        ),
        (
            "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]",
            "table [fruit.apple.taste] was already created by dotted keys (first defined at t.toml:2)", 3, 14
        ),
        (
            "[a.b.c]\n[a]\nb.d = 1\n[a.b]",
            "table [a.b] was already created by dotted keys (first defined at t.toml:3)", 4, 4
        ),
        ("[[a]]\n[a]", "[a] is an array of tables (first defined at t.toml:1); use [[a]]", 2, 2),
        ("a = 1\n[a]", "cannot define table [a]: key \"a\" is already an integer (first defined at t.toml:1)", 2, 2),
        (
            "a = {}\n[a]",
            "cannot define table [a]: key \"a\" is already an inline table (first defined at t.toml:1)", 2, 2
        ),
    ])
    func tablesDefinedTwice(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        ("a = {b = 1}\n[a.c]", #"cannot extend inline table "a" (first defined at t.toml:1)"#, 2, 2),
        ("a = {b = 1}\na.c = 2", #"cannot extend inline table "a" (first defined at t.toml:1)"#, 2, 1),
        ("a = {b = {c = 1}, b.d = 2}", #"cannot extend inline table "b" (first defined at t.toml:1)"#, 1, 19),
        ("[p]\nt = {n = 1}\n[p.t.x]", #"cannot extend inline table "p.t" (first defined at t.toml:2)"#, 3, 4),
        (
            "a = [{b = 1}]\n[a.c]",
            #"cannot extend array "a": it is not an array of tables (first defined at t.toml:1)"#,
            2, 2
        ),
        (
            "a = []\n[[a]]", #"cannot append to array "a": it is not an array of tables (first defined at t.toml:1)"#,
            2, 3
        ),
        ("a = 1\n[a.b]", #"key "a" is an integer, not a table (first defined at t.toml:1)"#, 2, 2),
        ("a = 1\na.b = 2", #"key "a" is an integer, not a table (first defined at t.toml:1)"#, 2, 1),
        ("a = \"x\"\n[[a.b]]", #"key "a" is a string, not a table (first defined at t.toml:1)"#, 2, 3),
        ("[a]\n[[a]]", #"cannot define [[a]]: "a" is already a table (first defined at t.toml:1)"#, 2, 3),
        (
            "a = 1\n[[a]]", #"cannot define [[a]]: key "a" is already an integer (first defined at t.toml:1)"#, 2, 3
        ),
        (
            "[a.b.c]\nz = 9\n[a]\nb.c.t = 1",
            #"cannot extend table "b.c" with a dotted key; it was defined by a header (first defined at t.toml:1)"#,
            4, 3
        ),
        (
            "[[x.a]]\n[x]\na.b = 1",
            #"cannot extend array of tables "a" with a dotted key (first defined at t.toml:1)"#, 3, 1
        ),
    ])
    func extendingFinishedValues(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        "[a.b.c]\nanswer = 42\n[a]\nbetter = 43",
        "[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true",
        "[a.b.c]\n[a]\nb.d = 1",
        "[[a]]\n[a.b]\n[[a]]\n[a.b]",
        "a.b.c = 1\na.b.d = 2\na.e = 3",
        "[[a]]\n[[a.b]]\n[a.b.c]\n[[a.b]]\n[a.b.c]",
        "a = {b.c = 1, b.d = 2}",
        "[x.y]\n[x]\n[x.z]",
    ])
    func allowedExtensions(_ input: String) throws {
        #expect(!(try tomlParse(input).isEmpty))
    }

    @Test func errorsUseTheFileNameGiven() {
        #expect(throws: TOMLParseError(
            message: #"duplicate key "a" (first defined at conf.d/10-site.toml:1)"#,
            location: SourceLocationFactory.make("conf.d/10-site.toml", 2, 1)
        )) {
            try TOMLParser.parse("a = 1\na = 2", file: "conf.d/10-site.toml")
        }
    }
}

/// `SourceLocation` is also a Swift Testing type; this keeps the intent readable in expectations.
private enum SourceLocationFactory {
    static func make(_ file: String, _ line: Int, _ column: Int) -> IntercomConfig.SourceLocation {
        IntercomConfig.SourceLocation(file: file, line: line, column: column)
    }
}
