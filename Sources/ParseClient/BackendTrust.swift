import NIOSSL

/// The certificate authorities the agent trusts for the backend's `https://` and `wss://` URLs: the
/// system's, plus the PEM bundle of `[backend] ca_file` (a private CA, or a self-signed server). One value
/// for REST (async-http-client) and the LiveQuery and signaling sockets (WSClient), which both take NIOSSL's
/// `TLSConfiguration`.
public struct BackendTrust: Sendable, Equatable {
    public let caFile: String?

    public init(caFile: String? = nil) {
        self.caFile = caFile
    }

    /// Full verification (chain and host name) against the system roots plus `caFile`.
    public var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        if let caFile { configuration.additionalTrustRoots = [.file(caFile)] }
        return configuration
    }
}
