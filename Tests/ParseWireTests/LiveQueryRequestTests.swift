import ParseWire
import Testing

/// The server's reading of client LiveQuery messages (parse-server `RequestSchema.js`).
@Suite struct LiveQueryRequestTests {
    @Test func aSubscribeWithKeysAndWatchParses() throws {
        let request = try LiveQueryRequest.parse(
            #"{"op":"subscribe","requestId":3,"query":{"className":"ActiveUsers","where":{"a":1},"keys":["a"],"watch":["b"]},"sessionToken":"r:x"}"#)
        guard case .subscribe(let query, let replacing) = request else {
            Issue.record("not a subscribe: \(request)")
            return
        }
        #expect(!replacing)
        #expect(query.requestId == 3)
        #expect(query.keys == ["a"])
        #expect(query.watch == ["b"])
        #expect(query.sessionToken == "r:x")
    }

    @Test(arguments: [
        (#"{"op":"connect"}"#, 1),
        (#"{"op":"connect","applicationId":"a","extra":1}"#, 1),
        (#"{"op":"subscribe","requestId":1,"query":{"className":"A","fields":["x"]}}"#, 1),
        (#"{"op":"subscribe","requestId":-1,"query":{"className":"A"}}"#, 1),
        (#"{"op":"subscribe","requestId":1.5,"query":{"className":"A"}}"#, 1),
        (#"{"op":"subscribe","requestId":1,"query":{"className":"A","where":[]}}"#, 1),
        (#"{"op":"subscribe","requestId":1,"query":{"where":{}}}"#, 1),
        (#"{"op":"launch"}"#, 3),
        (#"[]"#, 1),
        (#"{"#, 1),
    ] as [(String, Int)])
    func malformedMessagesAreRejectedWithTheirCode(text: String, code: Int) {
        #expect(throws: LiveQueryRequest.Rejection.self) { try LiveQueryRequest.parse(text) }
        do {
            _ = try LiveQueryRequest.parse(text)
        } catch {
            #expect(error.code == code, "\(text)")
        }
    }

    @Test func signalingFramesAfterTheJoinAreReadAsTheServerNeedsThem() throws {
        #expect(try SignalingInbound.parse(#"{"op":"ping"}"#) == .ping)
        #expect(try SignalingInbound.parse(#"{"op":"join","token":"t"}"#) == .unexpected(op: "join"))
        let relayed = try SignalingInbound.parse(#"{"op":"signal","to":"p1","data":{"type":"x","n":1}}"#)
        #expect(relayed == .signal(to: "p1", data: ["type": "x", "n": 1]))
        #expect(throws: ParseWireError.self) { try SignalingInbound.parse(#"{"op":"signal","to":"p1","data":{}}"#) }
        #expect(throws: ParseWireError.self) { try SignalingInbound.parse(#"{"op":"signal","data":{"type":"x"}}"#) }
    }
}
