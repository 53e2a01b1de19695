import Testing
import ParseWire

/// Issue #22 (1): text messages and their acknowledgement on the signaling wire, and the limits that refuse
/// an oversize, empty or control-character text.
@Suite struct SignalTextTests {
    @Test func textAndAckRoundTripAndEncodeAsDocumented() throws {
        let frames: [SignalingFrame] = [
            .signalTo(peerId: "p1", data: .text(id: "m-1", text: "Please leave the parcel at the door")),
            .signalFrom(peerId: "p2", data: .text(id: "é", text: "two\nlines, ünïcødé 🚪")),
            .signalFrom(peerId: "p2", data: .textAck(id: "m-1")),
            .error(.rateLimited, message: "slow down"),
            .error(.badSignal, message: "too long"),
        ]
        for frame in frames { #expect(try SignalingFrame.decode(frame.text) == frame) }
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .text(id: "a", text: "hi")).text
            == #"{"data":{"id":"a","text":"hi","type":"text"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .textAck(id: "a")).text
            == #"{"data":{"id":"a","type":"text-ack"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.error(.rateLimited, message: "x").text == #"{"code":"rate-limited","message":"x","op":"error"}"#)
    }

    /// 500 Unicode scalars pass whatever their UTF-8 or UTF-16 size (an emoji is one scalar, two UTF-16 units).
    @Test func theLimitCountsUnicodeScalars() throws {
        let emoji = String(repeating: "🚪", count: SignalText.maxScalars)
        #expect(try SignalPayload(json: ["type": "text", "id": "x", "text": .string(emoji)]) == .text(id: "x", text: emoji))
        #expect(throws: ParseWireError.invalidValue(path: "data.text", reason: "longer than 500 characters")) {
            try SignalPayload(json: ["type": "text", "id": "x", "text": .string(emoji + "a")])
        }
        let id = String(repeating: "i", count: SignalText.maxIDScalars)
        #expect(try SignalPayload(json: ["type": "text-ack", "id": .string(id)]) == .textAck(id: id))
    }

    struct Reject: Sendable, CustomStringConvertible {
        var data: String
        var error: ParseWireError
        var description: String { data }
    }

    static let rejects: [Reject] = [
        Reject(data: #"{"type":"text","id":"a"}"#, error: .missingField(path: "data.text")),
        Reject(data: #"{"type":"text","text":"hi"}"#, error: .missingField(path: "data.id")),
        Reject(data: #"{"type":"text","id":"a","text":5}"#, error: .wrongType(path: "data.text", expected: "string")),
        Reject(data: #"{"type":"text","id":7,"text":"hi"}"#, error: .wrongType(path: "data.id", expected: "string")),
        Reject(data: #"{"type":"text","id":"a","text":null}"#, error: .nullField(path: "data.text")),
        Reject(data: #"{"type":"text","id":"a","text":""}"#, error: .invalidValue(path: "data.text", reason: "empty")),
        Reject(data: #"{"type":"text","id":"","text":"hi"}"#, error: .invalidValue(path: "data.id", reason: "empty")),
        Reject(data: #"{"type":"text","id":"a","text":"bell\u0007"}"#,
               error: .invalidValue(path: "data.text", reason: "control character other than newline")),
        Reject(data: #"{"type":"text","id":"a","text":"cr\r\n"}"#,
               error: .invalidValue(path: "data.text", reason: "control character other than newline")),
        Reject(data: #"{"type":"text","id":"a","text":"tab\t"}"#,
               error: .invalidValue(path: "data.text", reason: "control character other than newline")),
        Reject(data: #"{"type":"text","id":"a","text":"c1\u0085"}"#,
               error: .invalidValue(path: "data.text", reason: "control character other than newline")),
        Reject(data: #"{"type":"text","id":"a\n","text":"hi"}"#, error: .invalidValue(path: "data.id", reason: "control character")),
        Reject(data: #"{"type":"text","id":""# + String(repeating: "i", count: 65) + #"","text":"hi"}"#,
               error: .invalidValue(path: "data.id", reason: "longer than 64 characters")),
        Reject(data: #"{"type":"text","id":"a","text":""# + String(repeating: "x", count: 501) + #""}"#,
               error: .invalidValue(path: "data.text", reason: "longer than 500 characters")),
        Reject(data: #"{"type":"text-ack"}"#, error: .missingField(path: "data.id")),
        Reject(data: #"{"type":"text-ack","id":["a"]}"#, error: .wrongType(path: "data.id", expected: "string")),
    ]

    @Test(arguments: rejects)
    func badTextsAreRejectedWithTypedErrors(_ reject: Reject) {
        #expect(throws: reject.error) { try SignalingFrame.decode(#"{"op":"signal","to":"p1","data":"# + reject.data + "}") }
    }
}
