/// An error in Parse's envelope (parse-wire.md §2). Most carry a numeric `code` and answer
/// `{"code":N,"error":"msg"}` with HTTP 404 for 101, 500 for 1, 429 for rate limits and 400 otherwise;
/// the app-id/key rejection is the code-less 403 `{"error":"unauthorized"}`.
public struct ParseError: Error, Sendable, Equatable {
    public enum Shape: Sendable, Equatable {
        /// `{"code":N,"error":msg}`
        case coded(Int)
        /// `{"error":msg}` with an explicit HTTP status (express errors, e.g. bad app id, malformed body).
        case plain(status: Int)
        /// `{"code":1,"message":"Internal server error."}`: a failure that is not the client's fault.
        case internalFailure
    }

    public let shape: Shape
    public let message: String

    public init(code: Int, _ message: String) {
        shape = .coded(code)
        self.message = message
    }

    init(plainStatus status: Int, _ message: String) {
        shape = .plain(status: status)
        self.message = message
    }

    public var code: Int? {
        switch shape {
        case .coded(let code): code
        case .plain: nil
        case .internalFailure: 1
        }
    }

    public var httpStatus: Int {
        switch shape {
        case .coded(ParseErrorCode.objectNotFound): 404
        case .coded(ParseErrorCode.internalServerError): 500
        case .coded(ParseErrorCode.connectionFailed): 429
        case .coded: 400
        case .plain(let status): status
        case .internalFailure: 500
        }
    }

    public var body: JSONValue {
        switch shape {
        case .coded(let code): ["code": .number(Double(code)), "error": .string(message)]
        case .plain: ["error": .string(message)]
        case .internalFailure: ["code": 1, "message": "Internal server error."]
        }
    }
}

extension ParseError {
    static let unauthorized = ParseError(plainStatus: 403, "unauthorized")
    /// express `enforceMasterKeyAccess` (e.g. `DELETE /files/:name` without the master key).
    static let masterKeyRequired = ParseError(plainStatus: 403, "unauthorized: master key is required")
    static let internalFailure = ParseError(shape: .internalFailure, message: "Internal server error.")
    static let objectNotFound = ParseError(code: ParseErrorCode.objectNotFound, "Object not found.")
    static let invalidSessionToken = ParseError(code: ParseErrorCode.invalidSessionToken, "Invalid session token")
    static let expiredSessionToken = ParseError(code: ParseErrorCode.invalidSessionToken, "Session token is expired.")
    static let tooManyRequests = ParseError(code: ParseErrorCode.connectionFailed, "Too many requests.")
    static let duplicateRequest = ParseError(code: ParseErrorCode.duplicateRequest, "Duplicate request")

    private init(shape: Shape, message: String) {
        self.shape = shape
        self.message = message
    }

    static func invalidJSON(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.invalidJSON, message)
    }

    static func invalidQuery(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.invalidQuery, message)
    }

    static func invalidKeyName(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.invalidKeyName, message)
    }

    static func incorrectType(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.incorrectType, message)
    }

    static func forbidden(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.operationForbidden, message)
    }

    static func scriptFailed(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.scriptFailed, message)
    }

    static func validation(_ message: String) -> ParseError {
        ParseError(code: ParseErrorCode.validationError, message)
    }
}
