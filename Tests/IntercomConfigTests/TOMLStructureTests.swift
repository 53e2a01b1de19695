import IntercomConfig
import Testing

@Suite("TOML keys, tables and arrays")
struct TOMLStructureTests {
    @Test func emptyAndCommentOnlyDocuments() throws {
        #expect(try tomlParse("").isEmpty)
        #expect(try tomlParse("\n\r\n  \t\n# only a comment\n   # another\t# nested hash").isEmpty)
        #expect(try TOMLParser.parse(bytes: [0xEF, 0xBB, 0xBF], file: tomlTestFile).isEmpty)
    }

    @Test func keysAndOrder() throws {
        let table = try tomlParse(
            """
            key = 1
            bare_key = 2
            bare-key = 3
            1234 = 4
            "127.0.0.1" = 5
            "character encoding" = 6
            'key2' = 7
            "ʎǝʞ" = 8
            'quoted "value"' = 9
            "" = 10
            "esc\\u0041ped" = 11
            """
        )
        #expect(table.keys == [
            "key", "bare_key", "bare-key", "1234", "127.0.0.1", "character encoding", "key2", "ʎǝʞ",
            "quoted \"value\"", "", "escAped",
        ])
        #expect(table[""]?.value == .integer(10))
        #expect(table["127.0.0.1"]?.value == .integer(5))
    }

    @Test func dottedKeysCreateNestedTables() throws {
        let table = try tomlParse(
            """
            name = "Orange"
            physical.color = "orange"
            physical . shape = "round"
            site."google.com" = true
            3.14159 = "pi"
            """
        )
        #expect(table.tomlPlain == .table([
            "name": .string("Orange"),
            "physical": .table(["color": .string("orange"), "shape": .string("round")]),
            "site": .table(["google.com": .boolean(true)]),
            "3": .table(["14159": .string("pi")]),
        ]))
    }

    @Test func tablesAndImplicitParents() throws {
        let table = try tomlParse(
            """
            top = 0
            [server.http]
            port = 8080
            [server]
            name = "main"
            [ dog . "tater.man" ]
            type.name = "pug"
            [empty]
            """
        )
        #expect(table.tomlPlain == .table([
            "top": .integer(0),
            "server": .table(["http": .table(["port": .integer(8080)]), "name": .string("main")]),
            "dog": .table(["tater.man": .table(["type": .table(["name": .string("pug")])])]),
            "empty": .table([:]),
        ]))
    }

    @Test func arraysOfTables() throws {
        let table = try tomlParse(
            """
            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[fruits.varieties]]
            name = "granny smith"
            [[ fruits ]]
            name = "banana"
            [[fruits.varieties]]
            name = "plantain"
            """
        )
        #expect(table.tomlPlain == .table([
            "fruits": .array([
                .table([
                    "name": .string("apple"),
                    "physical": .table(["color": .string("red")]),
                    "varieties": .array([
                        .table(["name": .string("red delicious")]), .table(["name": .string("granny smith")]),
                    ]),
                ]),
                .table(["name": .string("banana"), "varieties": .array([.table(["name": .string("plantain")])])]),
            ])
        ]))
    }

    @Test func arrays() throws {
        let table = try tomlParse(
            """
            integers = [ 1, 2, 3 ]
            mixed = [ 0.1, "x", true, 1979-05-27, [1], { a = 1 } ]
            nested = [ [ 1, 2 ], [ "a", [ [] ] ] ]
            empty = [ ]
            multi = [ # comment after the bracket
              1, # one
              # a line of its own
              2,
            ]
            crlf = [\r\n 1,\r\n 2\r\n]
            """
        )
        #expect(table.tomlValue("integers")?.tomlPlain == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(table.tomlValue("mixed")?.tomlPlain == .array([
            .float(0.1), .string("x"), .boolean(true), .dateTime("1979-05-27"), .array([.integer(1)]),
            .table(["a": .integer(1)]),
        ]))
        #expect(table.tomlValue("nested")?.tomlPlain == .array([
            .array([.integer(1), .integer(2)]), .array([.string("a"), .array([.array([])])]),
        ]))
        #expect(table.tomlValue("empty")?.tomlPlain == .array([]))
        #expect(table.tomlValue("multi")?.tomlPlain == .array([.integer(1), .integer(2)]))
        #expect(table.tomlValue("crlf")?.tomlPlain == .array([.integer(1), .integer(2)]))
    }

    @Test func inlineTables() throws {
        let table = try tomlParse(
            """
            name = { first = "Tom", last = "Preston-Werner" }
            point = {x=1,y=2}
            animal = { type.name = "pug", type.size = "small" }
            empty = {}
            nested = { a = { b = [ { c = 1 } ] } }
            spread = { a = [
              1,
              2 ], b = \"\"\"
            x\"\"\" }
            """
        )
        #expect(table.tomlValue("name")?.tomlPlain == .table([
            "first": .string("Tom"), "last": .string("Preston-Werner"),
        ]))
        #expect(table.tomlValue("point")?.tomlPlain == .table(["x": .integer(1), "y": .integer(2)]))
        #expect(table.tomlValue("animal")?.tomlPlain == .table([
            "type": .table(["name": .string("pug"), "size": .string("small")])
        ]))
        #expect(table.tomlValue("empty")?.tomlPlain == .table([:]))
        #expect(table.tomlValue("nested", "a", "b")?.tomlArray?.first?.value.tomlTable?["c"]?.value == .integer(1))
        #expect(table.tomlValue("spread")?.tomlPlain == .table([
            "a": .array([.integer(1), .integer(2)]), "b": .string("x"),
        ]))
    }

    @Test(arguments: [
        ("a = {\n}", "inline table must close on the line it opens ('}' expected, found end of line)", 1, 6),
        ("a = { b = 1\n}", "inline table must close on the line it opens ('}' expected, found end of line)", 1, 12),
        ("a = { b = 1, }", "trailing comma is not allowed in an inline table", 1, 14),
        ("a = { b = 1 # c\n}", "inline table must close on the line it opens ('}' expected, found '#')", 1, 13),
        ("a = { b = 1 c = 2 }", "expected ',' or '}' in inline table, found 'c'", 1, 13),
        ("a = { b = 1", "unterminated inline table", 1, 5),
        ("a = { b }", "expected '=' after key \"b\", found '}'", 1, 9),
        ("a = { b = }", "missing value for key \"b\"", 1, 11),
        ("a = { , }", "expected a key, found ','", 1, 7),
        ("a = [ 1 2 ]", "expected ',' or ']' in array, found '2'", 1, 9),
        ("a = [ 1,, 2 ]", "expected a value, found ','", 1, 9),
        ("a = [ , ]", "expected a value, found ','", 1, 7),
        ("a = [ 1,\n 2", "unterminated array", 1, 5),
        ("a = [ 1 # x\r 2 ]", "carriage return must be followed by a line feed", 1, 12),
        ("a = [ \"x\u{01}\" ]", "control character U+0001 must be escaped in a string", 1, 9),
        ("a = [ 1 # c\u{7F}\n ]", "control character U+007F is not allowed in a comment", 1, 12),
    ])
    func malformedArraysAndInlineTables(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(line, column))
    }

    @Test(arguments: [
        ("title \"x\"", "expected '=' after key \"title\", found '\"'", 1, 7),
        ("title", "expected '=' after key \"title\", found end of file", 1, 6),
        ("title\n= 1", "expected '=' after key \"title\", found end of line", 1, 6),
        ("title =", "missing value for key \"title\"", 1, 8),
        ("title = # c", "missing value for key \"title\"", 1, 9),
        ("= 1", "missing key before '='", 1, 1),
        ("a. = 1", "expected a key after '.', found '='", 1, 4),
        ("a..b = 1", "expected a key after '.', found '.'", 1, 3),
        (".a = 1", "expected a key, found '.'", 1, 1),
        ("é = 1", "expected a key, found 'é' (U+00E9) (keys with such characters need quotes)", 1, 1),
        ("\"\"\"a\"\"\" = 1", "a multi-line string cannot be used as a key", 1, 1),
        ("a = 1 b = 2", "expected end of line after value, found 'b'", 1, 7),
        ("a = \"x\" \"y\"", "expected end of line after value, found '\"'", 1, 9),
        ("a = @", "expected a value, found '@'", 1, 5),
        ("[a] b = 1", "expected end of line after table header, found 'b'", 1, 5),
        ("[]", "expected a key, found ']'", 1, 2),
        ("[a", "expected ']' after [a, found end of file", 1, 3),
        ("[a.]", "expected a key after '.', found ']'", 1, 4),
        ("[[a]", "expected ']]' after [[a, found end of file", 1, 5),
        ("[[a] ]", "expected ']]' after [[a, found a space", 1, 5),
        ("[ [a]]", "expected a key, found '['", 1, 3),
        ("a = 1\r", "carriage return must be followed by a line feed", 1, 6),
        ("# c\u{0}", "control character U+0000 is not allowed in a comment", 1, 4),
    ])
    func malformedLines(_ input: String, _ message: String, _ line: Int, _ column: Int) {
        let error = tomlError(input)
        #expect(error?.message == message)
        #expect(error?.location == tomlAt(line, column))
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a = 1\r\n[t]\r\nb = \"x\"\r\n".utf8)
        let table = try TOMLParser.parse(bytes: bytes, file: tomlTestFile)
        #expect(table.tomlPlain == .table(["a": .integer(1), "t": .table(["b": .string("x")])]))
        #expect(table["a"]?.keyLocation == tomlAt(1, 1))
        #expect(try tomlParse("\u{FEFF}a = 1")["a"]?.location == tomlAt(1, 5))
    }

    @Test func tableEditingKeepsFirstInsertOrder() {
        var table = TOMLTable()
        let here = tomlAt(1, 1)
        table.set("b", TOMLNode(value: .integer(1), location: here))
        table.set("a", TOMLNode(value: .integer(2), location: here))
        table.set("b", TOMLNode(value: .integer(3), location: here))
        #expect(table.keys == ["b", "a"])
        #expect(table["b"]?.value == .integer(3))
        table.remove("b")
        table.remove("missing")
        #expect(table.keys == ["a"])
        #expect(table["b"] == nil)
        #expect(table.count == 1)
    }

    @Test func typeNamesAndDescriptions() {
        let here = tomlAt(3, 7)
        let names = [
            TOMLValue.string(""), .integer(0), .float(0), .boolean(true), .dateTime("07:00:00"), .array([]),
            .table(TOMLTable()),
        ].map(\.typeName)
        #expect(names == ["string", "integer", "float", "boolean", "date-time", "array", "table"])
        #expect(here.description == "t.toml:3:7")
        #expect(here.fileAndLine == "t.toml:3")
        #expect(TOMLParseError(message: "oops", location: here).description == "t.toml:3:7: oops")
    }
}
