/// A rejected session description: the 1-based line that failed and why.
///
/// `line` is 0 when the problem concerns the whole document (size, a missing `o=` or `m=`).
public struct SDPError: Error, Equatable, Sendable, CustomStringConvertible {
    public var line: Int
    public var reason: Reason

    public init(line: Int, reason: Reason) {
        self.line = line
        self.reason = reason
    }

    public enum Reason: Error, Equatable, Sendable {
        case inputTooLarge(bytes: Int, limit: Int)
        case lineTooLong(bytes: Int, limit: Int)
        case tooManyMediaSections(limit: Int)
        case invalidUTF8
        /// NUL or a bare CR inside a line (RFC 8866 §9 `text` excludes them).
        case controlCharacter
        /// Not `<lowercase letter>=<value>` (RFC 8866 §5).
        case malformedLine
        case missingVersion
        case unsupportedVersion(String)
        case duplicateLine(type: String)
        /// A session-only line (`v=`, `o=`, `s=`, `t=`) after the first `m=` line.
        case misplacedLine(type: String)
        case missingOrigin
        case malformedOrigin
        case missingMediaSection
        case malformedMediaLine
        case invalidPort(String)
        case invalidPayloadType(String)
        case duplicatePayloadType(UInt8)
        case malformedAttribute(name: String)
        case rtpmapMissingClockRate(payloadType: UInt8)
        case unknownPayloadType(attribute: String, payloadType: UInt8)
        case invalidExtensionID(String)
        case unsupportedHashFunction(String)
        case malformedFingerprint
        case fingerprintLength(hashFunction: String, expectedBytes: Int, actualBytes: Int)
        case invalidSetup(String)
        case iceUfragLength(Int)
        case icePasswordLength(Int)
        case invalidICECharacter(attribute: String)
        case duplicateAttribute(name: String)
        case duplicateMid(String)
        case groupNamesMissingMid(semantics: String, mid: String)
        case invalidSSRC(String)
    }

    public var description: String {
        let place = line > 0 ? "SDP line \(line)" : "SDP"
        return "\(place): \(reason.explanation)"
    }
}

extension SDPError.Reason {
    var explanation: String {
        switch self {
        case let .inputTooLarge(bytes, limit): "input is \(bytes) bytes, above the \(limit)-byte limit"
        case let .lineTooLong(bytes, limit): "line is \(bytes) bytes, above the \(limit)-byte limit"
        case let .tooManyMediaSections(limit): "more than \(limit) m= sections"
        case .invalidUTF8: "input is not valid UTF-8"
        case .controlCharacter: "line contains NUL or a bare CR"
        case .malformedLine: "line is not of the form <type>=<value>"
        case .missingVersion: "the first line must be v=0"
        case let .unsupportedVersion(value): "unsupported version v=\(value), expected v=0"
        case let .duplicateLine(type): "second \(type)= line"
        case let .misplacedLine(type): "\(type)= is only allowed before the first m= line"
        case .missingOrigin: "no o= line before the first m= line"
        case .malformedOrigin: "o= needs <username> <sess-id> <sess-version> <nettype> <addrtype> <address>"
        case .missingMediaSection: "no m= line"
        case .malformedMediaLine: "m= needs <media> <port> <proto> <fmt> ..."
        case let .invalidPort(value): "port '\(value)' is not a number in 0...65535"
        case let .invalidPayloadType(value): "payload type '\(value)' is not a number in 0...127"
        case let .malformedAttribute(name): "malformed a=\(name) value"
        case let .duplicatePayloadType(pt): "payload type \(pt) is listed twice on the m= line"
        case let .rtpmapMissingClockRate(pt): "a=rtpmap for payload type \(pt) has no clock rate"
        case let .unknownPayloadType(attribute, pt): "a=\(attribute) names payload type \(pt), absent from the m= line"
        case let .invalidExtensionID(value): "extmap id '\(value)' is not in 1...14 (one-byte header, RFC 8285)"
        case let .unsupportedHashFunction(name): "unsupported fingerprint hash function '\(name)'"
        case .malformedFingerprint: "fingerprint must be colon-separated hex byte pairs"
        case let .fingerprintLength(hash, expected, actual):
            "\(hash) fingerprint has \(actual) bytes, expected \(expected)"
        case let .invalidSetup(value): "a=setup:\(value) is not active, passive, actpass or holdconn"
        case let .iceUfragLength(length): "ice-ufrag has \(length) characters, allowed 4...256"
        case let .icePasswordLength(length): "ice-pwd has \(length) characters, allowed 22...256"
        case let .invalidICECharacter(attribute): "a=\(attribute) has a character outside ALPHA / DIGIT / + / /"
        case let .duplicateAttribute(name): "second a=\(name) in the same section"
        case let .duplicateMid(mid): "mid '\(mid)' is used by an earlier m= section"
        case let .groupNamesMissingMid(semantics, mid): "a=group:\(semantics) names mid '\(mid)', which no m= section has"
        case let .invalidSSRC(value): "SSRC '\(value)' is not a 32-bit unsigned number"
        }
    }
}
