import ParseWire
import Testing
@testable import IntercomServer

/// Issue #22 (4): the relay checks the camera signals like texts: a malformed name or list is refused as a
/// bad signal and never relayed; valid ones pass, any number of them (only texts are rate-limited).
@Suite struct SignalingCameraGateTests {
    @Test func malformedCameraSignalsAreRefusedAndValidOnesPass() {
        var gate = SignalingTextGate()
        let refusals: [JSONValue] = [
            ["type": "camera", "name": "Front Door"],
            ["type": "camera", "name": .string(String(repeating: "a", count: 33))],
            ["type": "camera"],
            ["type": "cameras", "names": ["face", "face"], "active": "face"],
            ["type": "cameras", "names": ["face"], "active": "parcel"],
            ["type": "camera-error", "name": "x", "reason": ""],
        ]
        for data in refusals {
            let type = data["type"]?.stringValue ?? ""
            guard case .refused(let code, let message) = gate.check(type: type, data: data, from: "p1", now: 0) else {
                Issue.record("relayed: \(data)")
                continue
            }
            #expect(code == .badSignal)
            #expect(message.hasPrefix("\(type) refused: ") && message.contains("data."), "\(message)")
        }
        for index in 0..<30 {
            #expect(gate.check(type: "camera", data: ["type": "camera", "name": index % 2 == 0 ? "parcel" : "face"],
                               from: "p1", now: 0) == .pass)
        }
        #expect(gate.check(type: "cameras", data: ["type": "cameras", "names": ["face", "parcel"], "active": "parcel"],
                           from: "p2", now: 0) == .pass)
        #expect(gate.check(type: "camera-error", data: ["type": "camera-error", "name": "garage", "reason": "no camera"],
                           from: "p2", now: 0) == .pass)
    }
}
