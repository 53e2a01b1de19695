import IntercomConfig
import Testing

@Suite("TOML source locations")
struct TOMLLocationTests {
    @Test func keysAndValuesOnSimpleLines() throws {
        let table = try tomlParse("title = \"Intercom\"\n  port=8080 # comment\n\n\tname   =   'x'")
        #expect(table["title"]?.keyLocation == tomlAt(1, 1))
        #expect(table["title"]?.location == tomlAt(1, 9))
        #expect(table["port"]?.keyLocation == tomlAt(2, 3))
        #expect(table["port"]?.location == tomlAt(2, 8))
        #expect(table["name"]?.keyLocation == tomlAt(4, 2))
        #expect(table["name"]?.location == tomlAt(4, 13))
    }

    @Test func dottedKeysPointAtEachPart() throws {
        let table = try tomlParse("a . \"b c\" . d = 1")
        #expect(table["a"]?.keyLocation == tomlAt(1, 1))
        #expect(table.tomlNode("a", "b c")?.keyLocation == tomlAt(1, 5))
        #expect(table.tomlNode("a", "b c", "d")?.keyLocation == tomlAt(1, 13))
        #expect(table.tomlNode("a", "b c", "d")?.location == tomlAt(1, 17))
        // Tables made by dotted keys have no header.
        #expect(table.tomlValue("a")?.tomlTable?.location == nil)
    }

    @Test func linesAfterMultilineStrings() throws {
        let table = try tomlParse("a = \"\"\"\none\ntwo\"\"\"\nb = '''\n\n'''\nc = \"\"\"x\\\n  y\"\"\"\nd = 4")
        #expect(table["a"]?.location == tomlAt(1, 5))
        #expect(table["b"]?.keyLocation == tomlAt(4, 1))
        #expect(table["c"]?.keyLocation == tomlAt(7, 1))
        #expect(table["d"]?.keyLocation == tomlAt(9, 1))
        // The `;` is on line 8, after the continued string.
        #expect(tomlError("c = \"\"\"x\\\n  y\"\"\"; ")?.location == tomlAt(2, 7))
    }

    @Test func crlfCountsAsOneLineBreak() throws {
        let table = try tomlParse("a = 1\r\n\r\nb = \"\"\"\r\nx\r\n\"\"\"\r\n[t]\r\n  c = [\r\n 1,\r\n 2 ]\r\n")
        #expect(table["a"]?.keyLocation == tomlAt(1, 1))
        #expect(table["b"]?.keyLocation == tomlAt(3, 1))
        #expect(table["t"]?.location == tomlAt(6, 1))
        #expect(table.tomlNode("t", "c")?.keyLocation == tomlAt(7, 3))
        #expect(table.tomlValue("t", "c")?.tomlArray?.map(\.location) == [tomlAt(8, 2), tomlAt(9, 2)])
        #expect(tomlError("a = 1\r\nb = 2\r\nb = 3\r\n")?.location == tomlAt(3, 1))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let table = try tomlParse("\"日本\" = \"é\"\n")
        #expect(table["日本"]?.location == tomlAt(1, 8))
        #expect(tomlError("\"日本\" = \"é\" x")?.location == tomlAt(1, 12))
        #expect(tomlError("# 😀😀\nk = \"😀\" x")?.location == tomlAt(2, 9))
    }

    @Test func tableHeadersAndImplicitTables() throws {
        let table = try tomlParse("[a.b]\nx = 1\n\n  [ a ]\ny = 2")
        let a = table["a"]
        #expect(a?.location == tomlAt(4, 3))
        #expect(a?.keyLocation == tomlAt(4, 5))
        #expect(a?.value.tomlTable?.location == tomlAt(4, 3))
        let b = table.tomlNode("a", "b")
        #expect(b?.location == tomlAt(1, 1))
        #expect(b?.keyLocation == tomlAt(1, 4))
        #expect(b?.value.tomlTable?.location == tomlAt(1, 1))

        // Never defined by its own header: implicit, so no table location.
        let implicit = try tomlParse("[x.y]")
        #expect(implicit["x"]?.value.tomlTable?.location == nil)
        #expect(implicit["x"]?.keyLocation == tomlAt(1, 2))
        #expect(try tomlParse("a = 1").location == nil)
    }

    @Test func arraysOfTablesAndElements() throws {
        let table = try tomlParse("[[srv]]\nname = \"a\"\n\n[[srv]]\nname = \"b\"")
        let servers = table["srv"]
        #expect(servers?.location == tomlAt(1, 1))
        #expect(servers?.keyLocation == tomlAt(1, 3))
        let elements = servers?.value.tomlArray ?? []
        #expect(elements.map(\.location) == [tomlAt(1, 1), tomlAt(4, 1)])
        #expect(elements.map(\.keyLocation) == [nil, nil])
        #expect(elements.map { $0.value.tomlTable?.location } == [tomlAt(1, 1), tomlAt(4, 1)])
        #expect(elements.last?.value.tomlTable?["name"]?.keyLocation == tomlAt(5, 1))
    }

    @Test func inlineTablesAndArrayElements() throws {
        let table = try tomlParse("p = { x = 1, y = [ 2, { z = 3 } ] }")
        let p = table["p"]
        #expect(p?.location == tomlAt(1, 5))
        #expect(p?.value.tomlTable?.location == tomlAt(1, 5))
        #expect(table.tomlNode("p", "y")?.keyLocation == tomlAt(1, 14))
        let elements = table.tomlValue("p", "y")?.tomlArray ?? []
        #expect(elements.map(\.location) == [tomlAt(1, 20), tomlAt(1, 23)])
        #expect(elements.last?.value.tomlTable?["z"]?.keyLocation == tomlAt(1, 25))
        #expect(elements.last?.value.tomlTable?["z"]?.location == tomlAt(1, 29))
    }

    @Test func errorsInsideLaterLines() {
        let error = tomlError("# header\n[server]\nport = 80\nhost = \"x\nnext = 1")
        #expect(error?.location == tomlAt(4, 8))
        #expect(error?.description == "t.toml:4:8: unterminated string (use \"\"\" for a string that spans lines)")
    }
}
