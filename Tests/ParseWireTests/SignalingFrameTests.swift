import Testing
import ParseWire

@Suite struct SignalingFrameTests {
    static let frames: [SignalingFrame] = [
        .join(token: "eyJ.a.b", name: "Gate 3"),
        .join(token: "eyJ.a.b", name: nil),
        .joined(peerId: "p2", role: "publisher", peers: [SignalingPeer(peerId: "p1", name: "Alice", role: "subscriber")],
                iceServers: [IceServer(urls: ["turn:t.example.org:3478"], username: "1704115425:u1", credential: "c3U=")]),
        .joined(peerId: "p1", role: "subscriber", peers: [], iceServers: []),
        .peerJoined(SignalingPeer(peerId: "p3", name: "Viewer", role: "subscriber")),
        .peerLeft(peerId: "p1", reason: "timeout"),
        .peerLeft(peerId: "p1", reason: nil),
        .signalTo(peerId: "p1", data: .ringing),
        .signalTo(peerId: "p1", data: .offer(sdp: "v=0\r\no=- 1 2 IN IP4 0.0.0.0\r\n")),
        .signalFrom(peerId: "p2", data: .answer(sdp: "v=0\r\n")),
        .signalFrom(peerId: "p2", data: .candidate(.init(candidate: "candidate:1 1 udp 2122260223 192.0.2.1 54400 typ host", sdpMid: "0", sdpMLineIndex: 0))),
        .signalTo(peerId: "p2", data: .candidate(nil)),
        .signalTo(peerId: "p2", data: .bye(.busy)),
        .signalFrom(peerId: "p1", data: .door(action: "open")),
        .signalTo(peerId: "p1", data: .media(audio: false, video: true)),
        .signalFrom(peerId: "p2", data: .media(audio: true, video: false)),
        .ping, .pong,
        .error(.badToken, message: "signature mismatch"),
        .error(.full, message: ""),
    ]

    @Test(arguments: frames)
    func roundTrip(_ frame: SignalingFrame) throws {
        #expect(try SignalingFrame.decode(frame.text) == frame)
    }

    @Test func encodedFormsMatchTheContract() {
        #expect(SignalingFrame.join(token: "t", name: "Gate 3").text == #"{"name":"Gate 3","op":"join","token":"t"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .candidate(nil)).text == #"{"data":{"candidate":null,"type":"candidate"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .bye(.hangup)).text == #"{"data":{"reason":"hangup","type":"bye"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.ping.text == #"{"op":"ping"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .media(audio: false, video: true)).text == #"{"data":{"audio":false,"type":"media","video":true},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.error(.badFrame, message: "x").text == #"{"code":"bad-frame","message":"x","op":"error"}"#)
        #expect(SignalingFrame.peerJoined(SignalingPeer(peerId: "p3")).text == #"{"op":"peer-joined","peerId":"p3"}"#)
    }

    @Test func decodesServerFramesAsSystemMdShowsThem() throws {
        let joined = try SignalingFrame.decode(#"{"op":"joined","peerId":"p2","role":"publisher","peers":[{"peerId":"p1","name":"Web","role":"subscriber"}],"iceServers":[{"urls":"stun:s.example.org"}]}"#)
        #expect(joined == .joined(peerId: "p2", role: "publisher", peers: [SignalingPeer(peerId: "p1", name: "Web", role: "subscriber")], iceServers: [IceServer(urls: ["stun:s.example.org"])]))
        #expect(try SignalingFrame.decode(#"{"op":"signal","from":"p1","data":{"type":"candidate","candidate":""}}"#) == .signalFrom(peerId: "p1", data: .candidate(nil)))
        #expect(try SignalingFrame.decode(#"{"op":"signal","from":"p1","data":{"type":"candidate","candidate":"candidate:x","sdpMLineIndex":1}}"#)
            == .signalFrom(peerId: "p1", data: .candidate(.init(candidate: "candidate:x", sdpMid: nil, sdpMLineIndex: 1))))
        #expect(try SignalingFrame.decode(#"{"op":"pong","extra":1}"#) == .pong)
    }

    struct Reject: Sendable, CustomStringConvertible {
        var text: String
        var error: ParseWireError
        var description: String { text }
    }

    static let rejects: [Reject] = [
        Reject(text: #"{"op":"dance"}"#, error: .invalidValue(path: "op", reason: "unknown op")),
        Reject(text: #"{"token":"t"}"#, error: .missingField(path: "op")),
        Reject(text: #"{"op":null}"#, error: .nullField(path: "op")),
        Reject(text: #"{"op":"join"}"#, error: .missingField(path: "token")),
        Reject(text: #"{"op":"join","token":""}"#, error: .invalidValue(path: "token", reason: "empty")),
        Reject(text: #"{"op":"join","token":5}"#, error: .wrongType(path: "token", expected: "string")),
        Reject(text: #"{"op":"signal","data":{"type":"ringing"}}"#, error: .missingField(path: "to")),
        Reject(text: #"{"op":"signal","to":"a","from":"b","data":{"type":"ringing"}}"#, error: .invalidValue(path: "to", reason: "both to and from")),
        Reject(text: #"{"op":"signal","to":"a"}"#, error: .missingField(path: "data")),
        Reject(text: #"{"op":"signal","to":"a","data":"ringing"}"#, error: .wrongType(path: "data", expected: "object")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"offer"}}"#, error: .missingField(path: "data.sdp")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"offer","sdp":""}}"#, error: .invalidValue(path: "data.sdp", reason: "empty")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"candidate"}}"#, error: .missingField(path: "data.candidate")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"candidate","candidate":"a=candidate:1"}}"#, error: .invalidValue(path: "data.candidate", reason: "not a candidate line")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"candidate","candidate":"candidate:1","sdpMLineIndex":-1}}"#, error: .invalidValue(path: "data.sdpMLineIndex", reason: "negative")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"candidate","candidate":"candidate:1","sdpMLineIndex":0.5}}"#, error: .invalidValue(path: "data.sdpMLineIndex", reason: "not an integer")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"bye","reason":"bored"}}"#, error: .invalidValue(path: "data.reason", reason: "unknown bye reason")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"door","action":"close"}}"#, error: .invalidValue(path: "data.action", reason: "unknown door action")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"media","audio":true}}"#, error: .missingField(path: "data.video")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"media","audio":"off","video":true}}"#, error: .wrongType(path: "data.audio", expected: "boolean")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"media","audio":null,"video":true}}"#, error: .wrongType(path: "data.audio", expected: "boolean")),
        Reject(text: #"{"op":"signal","to":"a","data":{"type":"hack"}}"#, error: .invalidValue(path: "data.type", reason: "unknown signal type")),
        Reject(text: #"{"op":"error","code":"teapot"}"#, error: .invalidValue(path: "code", reason: "unknown error code")),
        Reject(text: #"{"op":"joined","peerId":"p","role":"publisher","peers":[{"name":"x"}]}"#, error: .missingField(path: "peers.0.peerId")),
        Reject(text: #"{"op":"joined","peerId":"p","role":"publisher","peers":[],"iceServers":[{"urls":[]}]}"#, error: .malformedTypedValue(path: "iceServers.0", expected: "iceServer")),
        Reject(text: "[]", error: .wrongType(path: "", expected: "object")),
    ]

    @Test(arguments: rejects)
    func strictDecodingRejectsWithTypedErrors(_ reject: Reject) {
        #expect(throws: reject.error) { try SignalingFrame.decode(reject.text) }
    }

    @Test func oversizedAndNonJSONFramesAreRejected() {
        let big = #"{"op":"signal","to":"a","data":{"type":"offer","sdp":""# + String(repeating: "a", count: SignalingFrame.maxFrameBytes) + #""}}"#
        #expect(throws: ParseWireError.tooLarge(bytes: big.utf8.count, limit: SignalingFrame.maxFrameBytes)) { try SignalingFrame.decode(big) }
        #expect(throws: ParseWireError.self) { try SignalingFrame.decode("{\"op\":\"ping\"") }
    }
}
