/// `[whep]`: WHEP (draft-ietf-wish-whep) view-only access to the shared encoder (docs/whep.md).
/// Disabled without the table; with it, both the address and the bearer token are required, since
/// an unauthenticated video endpoint on a door is never what anyone meant.
public struct WHEPSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    /// The bearer token file (absolute, or found through `$CREDENTIALS_DIRECTORY` like every secret).
    public var tokenFile: String

    public init(host: String, port: Int, tokenFile: String) {
        self.host = host
        self.port = port
        self.tokenFile = tokenFile
    }

    init?(_ reader: ConfigReader?, secrets: SecretResolver) {
        guard let reader else { return nil }
        host = ""
        port = 0
        tokenFile = ""
        if let listen = reader.string("listen", required: true) {
            // One parser for "HOST:PORT" (the metrics endpoint owns it).
            if let (host, port) = MetricsSettings.hostAndPort(listen) {
                self.host = host
                self.port = port
            } else {
                reader.report("listen", "expected \"HOST:PORT\" with a port from 1 to 65535, got \"\(listen)\"")
            }
        }
        switch secrets.locate(reader.string("token_file"), credential: "whep.token", reader: reader, key: "token_file") {
        case .found(let path): tokenFile = path
        case .absent: reader.report(nil, "missing required key \"token_file\" (or the systemd credential whep.token)")
        case .reported: break
        }
        reader.rejectUnknownKeys()
    }
}
