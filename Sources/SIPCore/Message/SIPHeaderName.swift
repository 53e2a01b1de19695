/// Header names: compared case-insensitively (RFC 3261 §7.3.1) and stored in one canonical spelling, with the
/// compact forms of §7.3.3 (and the extensions registered with IANA since) expanded.
public enum SIPHeaderName {
    public static let via = "Via"
    public static let from = "From"
    public static let to = "To"
    public static let callID = "Call-ID"
    public static let cseq = "CSeq"
    public static let contact = "Contact"
    public static let maxForwards = "Max-Forwards"
    public static let contentLength = "Content-Length"
    public static let contentType = "Content-Type"
    public static let route = "Route"
    public static let recordRoute = "Record-Route"
    public static let expires = "Expires"
    public static let minExpires = "Min-Expires"
    public static let allow = "Allow"
    public static let accept = "Accept"
    public static let supported = "Supported"
    public static let unsupported = "Unsupported"
    public static let require = "Require"
    public static let proxyRequire = "Proxy-Require"
    public static let wwwAuthenticate = "WWW-Authenticate"
    public static let proxyAuthenticate = "Proxy-Authenticate"
    public static let authorization = "Authorization"
    public static let proxyAuthorization = "Proxy-Authorization"
    public static let userAgent = "User-Agent"
    public static let date = "Date"

    /// Compact form → full name (RFC 3261 §7.3.3; RFC 3265, 3515, 3892, 3841, 4028, 4474).
    static let compactForms: [String: String] = [
        "i": callID, "m": contact, "e": "Content-Encoding", "l": contentLength, "c": contentType, "f": from,
        "s": "Subject", "k": supported, "t": to, "v": via, "o": "Event", "r": "Refer-To", "b": "Referred-By",
        "u": "Allow-Events", "x": "Session-Expires", "j": "Reject-Contact", "a": "Accept-Contact",
        "d": "Request-Disposition", "y": "Identity", "n": "Identity-Info",
    ]

    /// Lower-cased name → canonical spelling, for the names this target reads.
    static let canonical: [String: String] = {
        let names = [
            via, from, to, callID, cseq, contact, maxForwards, contentLength, contentType, route, recordRoute,
            expires, minExpires, allow, accept, supported, unsupported, require, proxyRequire, wwwAuthenticate,
            proxyAuthenticate, authorization, proxyAuthorization, userAgent, date, "Content-Encoding", "Subject",
            "Event", "Refer-To", "Referred-By", "Allow-Events", "Session-Expires", "Reject-Contact",
            "Accept-Contact", "Request-Disposition", "Identity", "Identity-Info", "Retry-After", "Warning",
        ]
        return Dictionary(uniqueKeysWithValues: names.map { ($0.lowercased(), $0) })
    }()

    /// The canonical spelling of `name` as received: compact forms expanded, known names re-cased, others kept.
    public static func normalized(_ name: String) -> String {
        let lower = name.lowercased()
        if let full = compactForms[lower] { return full }
        return canonical[lower] ?? name
    }
}
