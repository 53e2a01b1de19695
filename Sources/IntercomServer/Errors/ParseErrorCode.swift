/// The `Parse.Error` codes this server sends (Parse-SDK-JS `src/ParseError.ts`, parse-wire.md §2).
public enum ParseErrorCode {
    public static let internalServerError = 1
    /// Sent with HTTP 429 when a rate limit is hit (parse-server never sends 155).
    public static let connectionFailed = 100
    public static let objectNotFound = 101
    public static let invalidQuery = 102
    public static let invalidClassName = 103
    public static let invalidKeyName = 105
    public static let invalidJSON = 107
    public static let incorrectType = 111
    public static let operationForbidden = 119
    public static let duplicateValue = 137
    /// Parse-SDK-JS `TIMEOUT`: a query ran past its time budget.
    public static let timeout = 124
    public static let scriptFailed = 141
    public static let validationError = 142
    public static let duplicateRequest = 159
    public static let usernameMissing = 200
    public static let passwordMissing = 201
    public static let usernameTaken = 202
    public static let invalidSessionToken = 209
    public static let unsupportedService = 252
}
