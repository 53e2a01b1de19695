import Foundation

/// The five object events a LiveQuery subscription receives (parse-wire §8, `_onAfterSave`).
public enum LiveQueryEventKind: String, Sendable, Hashable, CaseIterable {
    case create, enter, update, leave, delete
}

/// A server→client LiveQuery message (parse-server `LiveQuery/Client.js`).
public enum LiveQueryServerFrame: Sendable, Hashable {
    case connected(clientId: String?)
    case subscribed(requestId: Int)
    case unsubscribed(requestId: Int)
    /// `reconnect` tells the client whether to reconnect; `requestId` is null for connection-level errors.
    case error(code: Int?, message: String, reconnect: Bool, requestId: Int?)
    /// `object` is the row as JSON (`__type:"Object"`, `className`, `objectId`, fields…).
    case event(LiveQueryEventKind, requestId: Int, object: JSONValue)

    /// Frames above this size are refused before parsing (reliability matrix §(c) 10).
    public static let maxFrameBytes = 1 << 20

    public static func decode(_ text: String, maxBytes: Int = maxFrameBytes) throws(ParseWireError) -> LiveQueryServerFrame {
        let value = try JSONValue.parse(text.utf8, limit: maxBytes)
        guard case .object = value else { throw .wrongType(path: "", expected: "object") }
        guard let opValue = value["op"] else { throw .missingField(path: "op") }
        guard let op = opValue.stringValue else { throw .wrongType(path: "op", expected: "string") }
        switch op {
        case "connected":
            return .connected(clientId: value["clientId"]?.stringValue)
        case "subscribed":
            return .subscribed(requestId: try requiredRequestId(value))
        case "unsubscribed":
            return .unsubscribed(requestId: try requiredRequestId(value))
        case "error":
            let message = value["error"]?.stringValue ?? ""
            var code: Int?
            if let raw = value["code"], raw != .null { code = try integer(raw, path: "code") }
            var reconnect = false
            if let raw = value["reconnect"] {
                guard case .bool(let flag) = raw else { throw .wrongType(path: "reconnect", expected: "bool") }
                reconnect = flag
            }
            var requestId: Int?
            if let raw = value["requestId"], raw != .null { requestId = try Self.requestId(raw) }
            return .error(code: code, message: message, reconnect: reconnect, requestId: requestId)
        default:
            guard let kind = LiveQueryEventKind(rawValue: op) else { throw .invalidValue(path: "op", reason: "unknown op") }
            let requestId = try requiredRequestId(value)
            guard let object = value["object"] else { throw .missingField(path: "object") }
            guard case .object = object else { throw .wrongType(path: "object", expected: "object") }
            return .event(kind, requestId: requestId, object: object)
        }
    }

    private static func requiredRequestId(_ frame: JSONValue) throws(ParseWireError) -> Int {
        guard let raw = frame["requestId"] else { throw .missingField(path: "requestId") }
        return try requestId(raw)
    }

    /// requestIds are client-chosen non-negative integers; floats, negatives and strings are rejected.
    private static func requestId(_ raw: JSONValue) throws(ParseWireError) -> Int {
        let id = try integer(raw, path: "requestId")
        guard id >= 0 else { throw .invalidValue(path: "requestId", reason: "negative") }
        return id
    }

    private static func integer(_ raw: JSONValue, path: String) throws(ParseWireError) -> Int {
        guard case .number(let number) = raw else { throw .wrongType(path: path, expected: "integer") }
        guard number.rounded() == number, abs(number) < 9.0e15 else {
            throw .invalidValue(path: path, reason: "not an integer")
        }
        return Int(number)
    }
}
