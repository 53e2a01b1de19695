import Foundation
import Testing
import ParseWire

@Suite struct ResponseErrorTests {
    let decoder = ParseResponseDecoder()

    private func failure<T: Decodable>(_ type: T.Type, status: Int = 200, _ text: String) -> ParseWireError? {
        do {
            _ = try decoder.decode(type, status: status, body: Fixture.bytes(text))
            return nil
        } catch {
            return error
        }
    }

    @Test func threeServerErrorShapesDecodeIntoParseError() {
        #expect(failure(CreateResponse.self, status: 400, #"{"code":209,"error":"Invalid session token"}"#)
            == .server(ParseError(code: 209, message: "Invalid session token", httpStatus: 400)))
        #expect(failure(CreateResponse.self, status: 500, #"{"code":1,"message":"Internal server error."}"#)
            == .server(ParseError(code: 1, message: "Internal server error.", httpStatus: 500)))
        #expect(failure(CreateResponse.self, status: 403, #"{"error":"unauthorized"}"#)
            == .server(ParseError(code: nil, message: "unauthorized", httpStatus: 403)))
        guard case .server(let html)? = failure(CreateResponse.self, status: 502, "<html>Bad Gateway</html>") else {
            Issue.record("a 502 page must be a server error")
            return
        }
        #expect(html.code == nil && html.httpStatus == 502 && html.message.contains("Bad Gateway"))
    }

    @Test func parseCodeWithHttp200IsStillAnError() {
        let error = failure(UserResponse.self, status: 200, #"{"code":209}"#)
        #expect(error == .server(ParseError(code: 209, message: "", httpStatus: 200)))
        if case .server(let parseError)? = error { #expect(parseError.isInvalidSession) }
    }

    @Test func missingObjectIdAndNullSessionTokenAreTyped() {
        #expect(failure(CreateResponse.self, #"{"createdAt":"2024-01-01T12:23:45.678Z"}"#) == .missingField(path: "objectId"))
        #expect(failure(UserResponse.self, #"{"objectId":"a","sessionToken":null}"#) == .nullField(path: "sessionToken"))
        #expect(failure(UserResponse.self, #"{"objectId":"a"}"#) == .missingField(path: "sessionToken"))
        #expect(failure(UserResponse.self, #"{"objectId":"a","sessionToken":""}"#) == .invalidValue(path: "sessionToken", reason: "empty"))
        #expect(failure(UserResponse.self, #"{"objectId":7,"sessionToken":"r:1"}"#) == .wrongType(path: "objectId", expected: "String"))
        #expect(failure(QueryResults<ActiveSessionRow>.self, #"{"results":[{"callerID":"a","receiverID":"b"}]}"#)
            == .missingField(path: "results.0.objectId"))
        #expect(failure(ActiveSessionRow.self, #"{"objectId":"","callerID":"a","receiverID":"b"}"#) == .invalidValue(path: "objectId", reason: "empty"))
        #expect(failure(ActiveSessionRow.self, #"{"objectId":"x","callerID":"a","receiverID":""}"#) == .invalidValue(path: "receiverID", reason: "empty"))
    }

    @Test func badDatesAndMalformedTypedValuesAreTyped() {
        #expect(failure(CreateResponse.self, #"{"objectId":"a","createdAt":"01/01/2024"}"#) == .invalidDate(path: "createdAt", value: "01/01/2024"))
        #expect(failure(CreateResponse.self, #"{"objectId":"a","createdAt":{"__type":"Date","iso":"2024-01-01T12:23:45.678Z"}}"#)
            == .wrongType(path: "createdAt", expected: "String"))
        let badExpiry = Fixture.originalCallRow.replacingOccurrences(of: #""isVideo":false"#, with: #""expiresAt":{"iso":"2024-01-01T12:23:45.678Z"},"isVideo":false"#)
        #expect(failure(ActiveSessionRow.self, badExpiry) == .malformedTypedValue(path: "expiresAt", expected: "Date"))
    }

    @Test func hugeArraysAndBodiesAreBounded() {
        let row = #"{"objectId":"x","callerID":"a","receiverID":"b"}"#
        let many = #"{"results":["# + Array(repeating: row, count: QueryResults<ActiveSessionRow>.maxRows + 1).joined(separator: ",") + "]}"
        #expect(failure(QueryResults<ActiveSessionRow>.self, many) == .tooManyResults(count: QueryResults<ActiveSessionRow>.maxRows + 1, limit: QueryResults<ActiveSessionRow>.maxRows))
        let small = ParseResponseDecoder(maxBodyBytes: 64)
        let body = Fixture.bytes(#"{"results":["# + Array(repeating: row, count: 3).joined(separator: ",") + "]}")
        #expect(throws: ParseWireError.tooLarge(bytes: body.count, limit: 64)) {
            try small.decode(QueryResults<ActiveSessionRow>.self, status: 200, body: body)
        }
    }

    @Test(arguments: ["", "{", #"{"objectId":"a","createdAt":"2024-01-01T12:23:45.678Z""#, "[1,2]", "null", "\u{FEFF}garbage"])
    func truncatedOrNonJSONBodiesThrow(_ text: String) {
        #expect(failure(CreateResponse.self, text) != nil)
    }

    @Test func deepNestingThrowsInsteadOfCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(failure(CreateResponse.self, deep) != nil)
        #expect(throws: ParseWireError.self) { try JSONValue.parse(deep.utf8, limit: 1 << 20) }
    }
}
