/// Why a call ended (`bye.reason`, SYSTEM.md §4).
public enum ByeReason: String, Sendable, Hashable, CaseIterable {
    case hangup, declined, busy, timeout, error
}

/// The `data` (D) of a `signal` frame, relayed untouched between peers (SYSTEM.md §4).
public enum SignalPayload: Sendable, Hashable {
    case ringing
    case offer(sdp: String)
    case answer(sdp: String)
    /// `candidate == nil` is the end-of-candidates marker (`"candidate":null`).
    case candidate(IceCandidate?)
    case bye(ByeReason)
    /// The caller asks the device to pulse its door relay; `action` is `open`.
    case door(action: String)
    /// What the sender sends now: its microphone is live (`audio`), its camera on (`video`). Sent when either
    /// changes and once when the call's media is up; the other side shows it (issue #22).
    case media(audio: Bool, video: Bool)
    /// A text message to the other party; `id` is the sender's, repeated by the acknowledgement. Limits in
    /// `SignalText` (issue #22).
    case text(id: String, text: String)
    /// The recipient got the text message `id` (shown as "delivered").
    case textAck(id: String)
    /// The caller asks the device to film with its camera `name` (one of those `cameras` advertised).
    case camera(name: String)
    /// The device's cameras and the one it sends now: sent when its media is up and after each switch; the
    /// caller offers "Switch camera" when there is more than one. Limits in `SignalCamera` (issue #22).
    case cameras(names: [String], active: String)
    /// A `camera` request the device refused (an unknown name); the call goes on.
    case cameraError(name: String, reason: String)

    public struct IceCandidate: Sendable, Hashable {
        /// The `candidate:…` attribute line.
        public var candidate: String
        public var sdpMid: String?
        public var sdpMLineIndex: Int?

        public init(candidate: String, sdpMid: String?, sdpMLineIndex: Int?) {
            self.candidate = candidate
            self.sdpMid = sdpMid
            self.sdpMLineIndex = sdpMLineIndex
        }
    }

    public var json: JSONValue {
        switch self {
        case .ringing: return ["type": "ringing"]
        case .offer(let sdp): return ["type": "offer", "sdp": .string(sdp)]
        case .answer(let sdp): return ["type": "answer", "sdp": .string(sdp)]
        case .candidate(nil): return ["type": "candidate", "candidate": .null]
        case .candidate(let c?):
            var members: [String: JSONValue] = ["type": "candidate", "candidate": .string(c.candidate)]
            if let mid = c.sdpMid { members["sdpMid"] = .string(mid) }
            if let index = c.sdpMLineIndex { members["sdpMLineIndex"] = .number(Double(index)) }
            return .object(members)
        case .bye(let reason): return ["type": "bye", "reason": .string(reason.rawValue)]
        case .door(let action): return ["type": "door", "action": .string(action)]
        case .media(let audio, let video): return ["type": "media", "audio": .bool(audio), "video": .bool(video)]
        case .text(let id, let text): return ["type": "text", "id": .string(id), "text": .string(text)]
        case .textAck(let id): return ["type": "text-ack", "id": .string(id)]
        case .camera(let name): return ["type": "camera", "name": .string(name)]
        case .cameras(let names, let active):
            return ["type": "cameras", "names": .array(names.map(JSONValue.string)), "active": .string(active)]
        case .cameraError(let name, let reason):
            return ["type": "camera-error", "name": .string(name), "reason": .string(reason)]
        }
    }

    /// Strict: unknown `type`, a missing or mistyped member, an empty SDP, an unknown bye reason or a text
    /// outside `SignalText`'s limits or a camera name outside `SignalCamera`'s throw.
    public init(json value: JSONValue, path: String = "data") throws(ParseWireError) {
        let fields = try FrameFields(value, path: path)
        switch try fields.string("type") {
        case "ringing": self = .ringing
        case "offer": self = .offer(sdp: try fields.nonEmptyString("sdp"))
        case "answer": self = .answer(sdp: try fields.nonEmptyString("sdp"))
        case "candidate":
            guard let raw = fields.raw("candidate") else { throw .missingField(path: path + ".candidate") }
            if raw == .null {
                self = .candidate(nil)
            } else {
                let line = try fields.string("candidate")
                guard line.isEmpty || line.hasPrefix("candidate:") else {
                    throw .invalidValue(path: path + ".candidate", reason: "not a candidate line")
                }
                // An empty string is the older end-of-candidates form of RTCIceCandidate.
                if line.isEmpty {
                    self = .candidate(nil)
                } else {
                    let index = try fields.optionalInt("sdpMLineIndex")
                    if let index, index < 0 { throw .invalidValue(path: path + ".sdpMLineIndex", reason: "negative") }
                    self = .candidate(IceCandidate(candidate: line, sdpMid: try fields.optionalString("sdpMid"), sdpMLineIndex: index))
                }
            }
        case "bye":
            let reason = try fields.string("reason")
            guard let known = ByeReason(rawValue: reason) else { throw .invalidValue(path: path + ".reason", reason: "unknown bye reason") }
            self = .bye(known)
        case "door":
            let action = try fields.string("action")
            guard action == "open" else { throw .invalidValue(path: path + ".action", reason: "unknown door action") }
            self = .door(action: action)
        case "media":
            self = .media(audio: try fields.bool("audio"), video: try fields.bool("video"))
        case "text":
            let id = try fields.string("id")
            try SignalText.checkID(id, path: path + ".id")
            let text = try fields.string("text")
            try SignalText.checkText(text, path: path + ".text")
            self = .text(id: id, text: text)
        case "text-ack":
            let id = try fields.string("id")
            try SignalText.checkID(id, path: path + ".id")
            self = .textAck(id: id)
        case "camera":
            let name = try fields.string("name")
            try SignalCamera.checkName(name, path: path + ".name")
            self = .camera(name: name)
        case "cameras":
            var names: [String] = []
            for (index, item) in try fields.array("names").enumerated() {
                guard case .string(let name) = item else {
                    throw .wrongType(path: path + ".names[\(index)]", expected: "string")
                }
                names.append(name)
            }
            let active = try fields.string("active")
            try SignalCamera.checkList(names, active: active, path: path)
            self = .cameras(names: names, active: active)
        case "camera-error":
            let name = try fields.string("name")
            // The refused name is echoed as asked, within the name's length (it may not be a valid name).
            guard !name.isEmpty, name.unicodeScalars.count <= SignalCamera.maxNameLength,
                  !name.unicodeScalars.contains(where: SignalText.isControl) else {
                throw .invalidValue(path: path + ".name", reason: "1…\(SignalCamera.maxNameLength) characters")
            }
            let reason = try fields.string("reason")
            try SignalCamera.checkReason(reason, path: path + ".reason")
            self = .cameraError(name: name, reason: reason)
        default:
            throw .invalidValue(path: path + ".type", reason: "unknown signal type")
        }
    }
}
