import Foundation
import Testing
import ParseWire

@Suite struct JSONValueParserTests {
    private func parse(_ text: String) throws(ParseWireError) -> JSONValue { try JSONValue.parse(text.utf8, limit: 1 << 20) }

    @Test func parsesEveryValueKind() throws {
        #expect(try parse(#" {"a":[1,-2.5e3,true,false,null,"x\n\u00e9\ud83d\ude00\/"],"b":{}} "#)
            == ["a": [1, -2500, true, false, nil, "x\né😀/"], "b": [:]])
        #expect(try parse("0") == 0 && parse(#""""#) == "")
        #expect(try parse(#"{"k":1,"k":2}"#) == ["k": 2])
    }

    @Test(arguments: [
        "", " ", "[1,]", "{\"a\"}", "{\"a\":1,}", "01", "1.", ".5", "-", "1e", "1e400", "tru", "nul", "[1]x",
        "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\\x\"", "\"\\u12G4\"", "\"a\u{01}b\"", "\"open",
        "{\"a\":1", "NaN", "Infinity", "'s'",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: ParseWireError.self) { try parse(text) }
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        #expect(throws: ParseWireError.self) { try JSONValue.parse([0x22, 0xC3, 0x28, 0x22], limit: 100) }
        #expect(throws: ParseWireError.notJSON("nesting deeper than 64 at byte 64")) {
            try parse(String(repeating: "[", count: 65) + String(repeating: "]", count: 65))
        }
        #expect((try? parse(String(repeating: "[", count: 64) + String(repeating: "]", count: 64))) != nil)
    }

    @Test func agreesWithFoundationOnWellFormedDocuments() throws {
        for fixture in [Fixture.callRow, Fixture.activeUserRow, Fixture.liveEvent("update")] {
            let ours = try parse(fixture)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(fixture.utf8))
            #expect(ours == foundation)
            #expect(try parse(ours.jsonText()) == ours)
        }
    }

    @Test func outcomeFromReceivedResponseReadsCodeAndRetryAfter() {
        #expect(AttemptOutcome.received(status: 200, body: Array(#"{"code":209}"#.utf8)) == .response(status: 200, parseCode: 209))
        #expect(AttemptOutcome.received(status: 429, body: Array(#"{"code":100,"error":"Too many requests."}"#.utf8), retryAfterHeader: "5")
            == .response(status: 429, parseCode: 100, retryAfterSeconds: 5))
        #expect(AttemptOutcome.received(status: 201, body: Array(#"{"objectId":"a","createdAt":"2024-01-01T12:23:45.678Z"}"#.utf8))
            == .response(status: 201, parseCode: nil))
        #expect(ParseError(code: 209, message: "", httpStatus: 400).knownCode == .invalidSessionToken)
        #expect(ParseError(code: 999, message: "", httpStatus: 400).knownCode == nil)
    }
}
