import Foundation

/// `[backend]`: the Parse server (ours or a real parse-server) the device registers with.
public struct BackendSettings: Sendable, Equatable {
    /// How the device logs in.
    public enum Login: Sendable, Equatable {
        /// Anonymous login; the auth id lives in the state directory so the userID never changes.
        case anonymous
        /// A provisioned user; the password comes from a file or a systemd credential, never inline.
        case password(username: String, passwordFile: String)
    }

    public var serverURL: URL
    public var liveQueryURL: URL
    public var applicationID: String
    public var clientKey: String?
    public var login: Login
    public var requestTimeout: Duration
    /// Hosts (besides `server_url`'s and `live_query_url`'s) whose signaling rooms the device may join: a call
    /// row names its room's `signalURL`, and joining hands that host the call's token.
    public var signalHosts: [String]
    /// `ca_file`: a PEM bundle trusted besides the system's CAs for `https://` and `wss://` (a private CA,
    /// or a self-signed server's certificate); nil: the system's CAs alone.
    public var caFile: String?

    public static let defaultServerURL = URL(string: "http://127.0.0.1:1337/parse")!

    init(_ reader: ConfigReader, secrets: SecretResolver) {
        serverURL = reader.url("server_url", schemes: ["http", "https"], required: true) ?? Self.defaultServerURL
        liveQueryURL = reader.url("live_query_url", schemes: ["ws", "wss"]) ?? Self.webSocketURL(for: serverURL)
        if liveQueryURL.scheme?.lowercased() == "wss", let host = liveQueryURL.host, Self.isIPAddress(host) {
            reader.report(reader.contains("live_query_url") ? "live_query_url" : "server_url",
                          "wss:// to an IP address (\(host)) cannot be verified by the agent's WebSocket client (it sends "
                          + "the host as TLS SNI, which is refused for an address): use a host name from the server's certificate")
        }
        applicationID = reader.text("application_id", maxLength: 200) ?? "intercom"
        clientKey = reader.text("client_key", maxLength: 200)
        requestTimeout = reader.duration("request_timeout", in: .seconds(1)...(.seconds(120))) ?? .seconds(10)
        signalHosts = (reader.stringArray("signal_hosts") ?? []).map { $0.lowercased() }
        caFile = Self.caFile(reader, secrets: secrets)
        let username = reader.text("username", maxLength: 100)
        let passwordFile = reader.string("password_file")
        if let username {
            switch secrets.locate(passwordFile, credential: "backend.password", reader: reader, key: "password_file") {
            case .found(let path):
                login = .password(username: username, passwordFile: path)
            case .absent:
                reader.report("password_file", "backend.username is set, so a password is needed: set "
                    + "password_file or provide the systemd credential \"backend.password\"")
                login = .anonymous
            case .reported:
                login = .anonymous
            }
        } else {
            // An anonymous device ignores the credential (the unit always provides one, possibly empty).
            if passwordFile != nil { reader.report("password_file", "is set but backend.username is not") }
            login = .anonymous
        }
        reader.rejectUnknownKeys()
    }

    /// A literal IPv4 or IPv6 address (`192.0.2.1`, `::1`, `[::1]`), not a name.
    static func isIPAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// `ca_file`: an absolute path to a readable file holding at least one PEM certificate.
    static func caFile(_ reader: ConfigReader, secrets: SecretResolver) -> String? {
        guard let path = reader.string("ca_file") else { return nil }
        guard path.hasPrefix("/") else {
            reader.report("ca_file", "expected an absolute path, got \"\(path)\"")
            return nil
        }
        guard secrets.checksFiles else { return path }
        switch secrets.readFile(path) {
        case .failure(let failure):
            reader.report("ca_file", "cannot read \(path): \(failure.reason)")
            return nil
        case .success(let bytes) where !String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----"):
            reader.report("ca_file", "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            return nil
        case .success:
            return path
        }
    }

    /// Every host a call's `signalURL` may name: the backend's own and the configured `signal_hosts`.
    public var allowedSignalHosts: Set<String> {
        Set([serverURL.host, liveQueryURL.host].compactMap { $0?.lowercased() } + signalHosts)
    }

    /// The LiveQuery socket lives at the REST mount with a WebSocket scheme (parse-server's default).
    static func webSocketURL(for server: URL) -> URL {
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)
        components?.scheme = server.scheme?.lowercased() == "https" ? "wss" : "ws"
        return components?.url ?? server
    }
}
