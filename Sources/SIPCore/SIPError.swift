/// Why a SIP message, header or exchange was refused. `responseStatus` and `reasonPhrase` are what a UAS
/// answers with (RFC 3261 §8.2, §16.3): 400 for syntax, 505 for a version, 416 for a URI scheme.
public enum SIPError: Error, Hashable, Sendable {
    case messageTooLarge
    case tooManyHeaders
    case headerTooLong
    case incompleteHeaders
    case malformedStartLine
    case unsupportedVersion(String)
    case malformedStatusCode
    case malformedHeader(name: String)
    case missingHeader(String)
    case duplicateHeader(String)
    case malformedURI
    case unsupportedURIScheme(String)
    case headersInRequestURI
    case missingContentLength
    case malformedContentLength
    case bodyShorterThanContentLength
    case methodMismatch
    case missingBranch
    case malformedChallenge
    case unsupportedDigestAlgorithm(String)
    case unsupportedQop
    case multipleViasInResponse
    case malformedDate
    case notARequest
    case notAResponse

    /// The status code a UAS answers a request refused for this reason with.
    public var responseStatus: Int {
        switch self {
        case .unsupportedVersion: 505
        case .unsupportedURIScheme: 416
        case .messageTooLarge: 513
        default: 400
        }
    }

    /// A reason phrase that says what was wrong (RFC 3261 §21.4.1 lets a 400 explain itself).
    public var reasonPhrase: String {
        switch self {
        case .messageTooLarge: "Message Too Large"
        case .tooManyHeaders: "Bad Request - Too Many Header Fields"
        case .headerTooLong: "Bad Request - Header Field Too Long"
        case .incompleteHeaders: "Bad Request - Incomplete Header"
        case .malformedStartLine: "Bad Request - Malformed Start Line"
        case .unsupportedVersion: "Version Not Supported"
        case .malformedStatusCode: "Bad Request - Malformed Status Code"
        case .malformedHeader(let name): "Bad Request - Malformed \(name)"
        case .missingHeader(let name): "Bad Request - Missing \(name)"
        case .duplicateHeader(let name): "Bad Request - Multiple \(name)"
        case .malformedURI: "Bad Request - Malformed URI"
        case .unsupportedURIScheme: "Unsupported URI Scheme"
        case .headersInRequestURI: "Bad Request - Headers in Request-URI"
        case .missingContentLength: "Bad Request - Missing Content-Length"
        case .malformedContentLength: "Bad Request - Malformed Content-Length"
        case .bodyShorterThanContentLength: "Bad Request - Body Shorter Than Content-Length"
        case .methodMismatch: "Bad Request - CSeq Method Mismatch"
        case .missingBranch: "Bad Request - Missing Via Branch"
        case .malformedChallenge: "Bad Request - Malformed Challenge"
        case .unsupportedDigestAlgorithm: "Bad Request - Unsupported Digest Algorithm"
        case .unsupportedQop: "Bad Request - Unsupported qop"
        case .multipleViasInResponse: "Bad Request - Multiple Via in Response"
        case .malformedDate: "Bad Request - Malformed Date"
        case .notARequest, .notAResponse: "Bad Request"
        }
    }
}
