import NIOSSL
import Synchronization

/// The certificate `intercom-server` serves now, replaceable while it runs: every TLS handshake asks for
/// the current pair (`TLSConfiguration.sslContextCallback`), so after `reload()` new connections get the
/// new certificate and connections already open keep theirs. A reload that fails leaves the current pair.
public final class ServerCertificate: Sendable {
    private let current: Mutex<TLSCredentials>

    /// Loads `files`; throws the first problem with them.
    public init(files: TLSFiles) throws(TLSCredentialsError) {
        current = Mutex(try TLSCredentials.load(files))
    }

    public var credentials: TLSCredentials { current.withLock { $0 } }

    /// Reads the files again; on success new handshakes use them, on failure nothing changes.
    @discardableResult
    public func reload() throws(TLSCredentialsError) -> TLSCredentials {
        let files = credentials.files
        let fresh = try TLSCredentials.load(files)
        current.withLock { $0 = fresh }
        return fresh
    }

    /// The server's TLS configuration: the pair loaded at start (the context must have one) and a
    /// per-handshake override with the current pair.
    public var tlsConfiguration: TLSConfiguration {
        let first = credentials
        var configuration = TLSCredentials.serverConfiguration(chain: first.chain, key: first.key)
        configuration.sslContextCallback = { [self] _, promise in
            let now = credentials
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = now.chain.map { .certificate($0) }
            override.privateKey = .privateKey(now.key)
            promise.succeed(override)
        }
        return configuration
    }
}
