/// One `RTCIceServer.urls` entry (RFC 7064 `stun:` / RFC 7065 `turn:` URIs) as libnice can use it:
/// plain STUN, or TURN over UDP. `stuns:`/`turns:` (TLS) and `?transport=tcp` are not supported by our
/// libnice set-up and yield nil.
public enum ICEServerURL: Sendable, Equatable {
    case stun(STUNServer)
    case turn(TURNServer)

    /// Parses `url`; `username`/`credential` are required for TURN (TURN REST credentials).
    public init?(_ url: String, username: String? = nil, credential: String? = nil) {
        let lowered = url.lowercased()
        let isTURN: Bool
        if lowered.hasPrefix("stun:") {
            isTURN = false
        } else if lowered.hasPrefix("turn:") {
            isTURN = true
        } else {
            return nil
        }
        var rest = Substring(url.dropFirst(5))
        if let query = rest.firstIndex(of: "?") {
            let parameters = rest[rest.index(after: query)...].lowercased()
            guard parameters.isEmpty || parameters == "transport=udp" else { return nil }
            rest = rest[..<query]
        }
        guard let (host, port) = Self.hostAndPort(rest), !host.isEmpty else { return nil }
        if isTURN {
            guard let username, let credential else { return nil }
            self = .turn(TURNServer(host: host, port: port, username: username, password: credential))
        } else {
            self = .stun(STUNServer(host: host, port: port))
        }
    }

    /// `host`, `host:port`, `[v6]` or `[v6]:port`; the default port is 3478 (RFC 7064 §3.1).
    private static func hostAndPort(_ text: Substring) -> (String, UInt16)? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = String(text[text.index(after: text.startIndex)..<close])
            let after = text[text.index(after: close)...]
            if after.isEmpty { return (host, 3478) }
            guard after.hasPrefix(":"), let port = UInt16(after.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (String(parts[0]), 3478)
        case 2:
            guard let port = UInt16(parts[1]) else { return nil }
            return (String(parts[0]), port)
        default: return nil
        }
    }
}

extension PeerConnectionConfiguration {
    /// Uses the first usable STUN and the first usable TURN entry of `servers` (url list, username,
    /// credential per entry, as an `iceServers` array carries them); the rest are ignored.
    public mutating func useICEServers(_ servers: [(urls: [String], username: String?, credential: String?)]) {
        for server in servers {
            for url in server.urls {
                switch ICEServerURL(url, username: server.username, credential: server.credential) {
                case let .stun(stun)? where stunServer == nil: stunServer = stun
                case let .turn(turn)? where turnServer == nil: turnServer = turn
                default: break
                }
            }
        }
    }
}
