import Foundation

/// One REST request, ready for any HTTP client. A retry re-sends the same value, so its
/// `X-Parse-Request-Id` is reused (parse-server idempotency, parse-wire §7).
public struct ParseRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable { case get = "GET", post = "POST", put = "PUT", delete = "DELETE" }

    public var method: Method
    /// Absolute URL path including the mount, e.g. `/parse/classes/ActiveUsers/Ed1nuqPvcm`.
    public var path: String
    /// Unencoded name/value pairs, in order; values are often JSON text (`where`).
    public var queryItems: [QueryItem]
    /// Header name/value pairs, in a fixed order.
    public var headers: [Header]
    /// JSON body, nil for GET and DELETE.
    public var body: [UInt8]?

    public struct QueryItem: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public struct Header: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: Method, path: String, queryItems: [QueryItem] = [], headers: [Header] = [], body: [UInt8]? = nil) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Path plus query, every byte outside RFC 3986 `unreserved` percent-encoded. `+` is encoded too: the
    /// server's query parser reads a raw `+` as a space, which would corrupt JSON in `where`.
    public var pathAndQuery: String {
        guard !queryItems.isEmpty else { return path }
        let query = queryItems.map { Self.percentEncode($0.name) + "=" + Self.percentEncode($0.value) }
        return path + "?" + query.joined(separator: "&")
    }

    /// The body as text, for logs and tests.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }

    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
