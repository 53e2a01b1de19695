import Testing
import ParseWire

/// Issue #22 (4) "Switch camera": the caller's `camera` request, the device's `cameras` list and its
/// `camera-error` refusal on the signaling wire, and the name rule that refuses bad or oversize names.
@Suite struct SignalCameraTests {
    @Test func cameraSignalsRoundTripAndEncodeAsDocumented() throws {
        let frames: [SignalingFrame] = [
            .signalTo(peerId: "p1", data: .camera(name: "parcel")),
            .signalFrom(peerId: "p2", data: .cameras(names: ["face", "parcel"], active: "face")),
            .signalFrom(peerId: "p2", data: .cameraError(name: "garage", reason: "no camera \"garage\" on this device")),
        ]
        for frame in frames { #expect(try SignalingFrame.decode(frame.text) == frame) }
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .camera(name: "parcel")).text
            == #"{"data":{"name":"parcel","type":"camera"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .cameras(names: ["face", "parcel"], active: "parcel")).text
            == #"{"data":{"active":"parcel","names":["face","parcel"],"type":"cameras"},"op":"signal","to":"p1"}"#)
        #expect(SignalingFrame.signalTo(peerId: "p1", data: .cameraError(name: "x", reason: "no")).text
            == #"{"data":{"name":"x","reason":"no","type":"camera-error"},"op":"signal","to":"p1"}"#)
    }

    @Test func theNameRule() {
        let longest = String(repeating: "a", count: SignalCamera.maxNameLength)
        for name in ["face", "parcel", "cam_2", "back-door", longest] { #expect(SignalCamera.isValidName(name), "\(name)") }
        for name in ["", longest + "a", "Face", "front door", "caméra", "a/b", "a\n", "🚪"] {
            #expect(!SignalCamera.isValidName(name), "\(name)")
        }
    }

    struct Reject: Sendable, CustomStringConvertible {
        var data: String
        var error: ParseWireError
        var description: String { data }
    }

    static let nameRule = "a camera name is 1…32 characters of a-z, 0-9, - and _"
    static let rejects: [Reject] = [
        Reject(data: #"{"type":"camera"}"#, error: .missingField(path: "data.name")),
        Reject(data: #"{"type":"camera","name":5}"#, error: .wrongType(path: "data.name", expected: "string")),
        Reject(data: #"{"type":"camera","name":""}"#, error: .invalidValue(path: "data.name", reason: nameRule)),
        Reject(data: #"{"type":"camera","name":"Front Door"}"#, error: .invalidValue(path: "data.name", reason: nameRule)),
        Reject(data: #"{"type":"camera","name":"x\n"}"#, error: .invalidValue(path: "data.name", reason: nameRule)),
        Reject(data: #"{"type":"camera","name":""# + String(repeating: "a", count: 33) + #""}"#,
               error: .invalidValue(path: "data.name", reason: nameRule)),
        Reject(data: #"{"type":"cameras","active":"a"}"#, error: .missingField(path: "data.names")),
        Reject(data: #"{"type":"cameras","names":[],"active":"a"}"#, error: .invalidValue(path: "data.names", reason: "1…8 cameras")),
        Reject(data: #"{"type":"cameras","names":["a","b","c","d","e","f","g","h","i"],"active":"a"}"#,
               error: .invalidValue(path: "data.names", reason: "1…8 cameras")),
        Reject(data: #"{"type":"cameras","names":["a",1],"active":"a"}"#, error: .wrongType(path: "data.names[1]", expected: "string")),
        Reject(data: #"{"type":"cameras","names":["a","B"],"active":"a"}"#, error: .invalidValue(path: "data.names[1]", reason: nameRule)),
        Reject(data: #"{"type":"cameras","names":["a","a"],"active":"a"}"#, error: .invalidValue(path: "data.names", reason: "duplicate name")),
        Reject(data: #"{"type":"cameras","names":["a","b"],"active":"c"}"#, error: .invalidValue(path: "data.active", reason: "not among names")),
        Reject(data: #"{"type":"camera-error","name":"x","reason":""}"#, error: .invalidValue(path: "data.reason", reason: "1…200 characters")),
        Reject(data: #"{"type":"camera-error","name":"x","reason":""# + String(repeating: "r", count: 201) + #""}"#,
               error: .invalidValue(path: "data.reason", reason: "1…200 characters")),
        Reject(data: #"{"type":"camera-error","name":"x","reason":"bell\u0007"}"#,
               error: .invalidValue(path: "data.reason", reason: "control character")),
        Reject(data: #"{"type":"camera-error","name":"","reason":"r"}"#, error: .invalidValue(path: "data.name", reason: "1…32 characters")),
    ]

    @Test(arguments: rejects)
    func badCameraSignalsAreRejectedWithTypedErrors(_ reject: Reject) {
        #expect(throws: reject.error) { try SignalingFrame.decode(#"{"op":"signal","to":"p1","data":"# + reject.data + "}") }
    }
}
