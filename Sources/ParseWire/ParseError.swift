import Foundation

/// An error answered by a Parse server. parse-server's `handleParseErrors` middleware writes three shapes:
/// `{"code":N,"error":"…"}` for a `Parse.Error`, `{"code":1,"message":"…"}` for an unexpected exception, and
/// `{"error":"…"}` for errors with an express status (e.g. 403 unauthorized). All decode into this one type.
public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Parse-SDK error codes this project reacts to.
    public enum Code: Int, Sendable {
        case internalServerError = 1
        case connectionFailed = 100
        case objectNotFound = 101
        case invalidQuery = 102
        case invalidJSON = 107
        case incorrectType = 111
        case operationForbidden = 119
        case scriptFailed = 141
        case validationError = 142
        case duplicateRequest = 159
        case invalidSessionToken = 209
        case unsupportedService = 252
    }

    /// The code as a known case, nil for the status-only shape or codes this project does not name.
    public var knownCode: Code? { code.flatMap(Code.init(rawValue:)) }

    /// The Parse code, or nil for the status-only shape.
    public var code: Int?
    public var message: String
    /// The HTTP status the error came with.
    public var httpStatus: Int

    public init(code: Int?, message: String, httpStatus: Int) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
    }

    /// 209: the session token is no longer valid; the client logs in again (exactly once).
    public var isInvalidSession: Bool { code == Code.invalidSessionToken.rawValue }

    public var description: String {
        "Parse error \(code.map(String.init) ?? "-") (HTTP \(httpStatus)): \(message)"
    }

    /// Decodes any of the three shapes; a body that is none of them is reported with its status and a prefix.
    public static func decode(body: [UInt8], httpStatus: Int) -> ParseError {
        struct Envelope: Decodable {
            var code: Int?
            var error: String?
            var message: String?
        }
        if (try? JSONDepthGuard.check(body)) != nil,
           let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(body)),
           envelope.code != nil || envelope.error != nil || envelope.message != nil {
            return ParseError(code: envelope.code, message: envelope.error ?? envelope.message ?? "", httpStatus: httpStatus)
        }
        let prefix = String(decoding: body.prefix(120), as: UTF8.self)
        return ParseError(code: nil, message: "unexpected response body: \(prefix)", httpStatus: httpStatus)
    }
}
