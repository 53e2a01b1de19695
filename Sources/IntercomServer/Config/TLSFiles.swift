/// The PEM files `intercom-server` serves HTTPS with (`tls_cert_file`, `tls_key_file`): the certificate
/// (its chain may follow it in the same file) and its private key. Both or neither.
public struct TLSFiles: Sendable, Equatable {
    public var certificateFile: String
    public var keyFile: String

    public init(certificateFile: String, keyFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
    }

    /// `certificate` and `key` as set (nil: unset): both make a pair, neither is plain HTTP, one alone is
    /// an error naming the missing setting.
    static func pair(certificate: String?, key: String?, certificateName: String, keyName: String)
        throws(ServerConfigurationError) -> TLSFiles?
    {
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?): return TLSFiles(certificateFile: certificate, keyFile: key)
        case (_?, nil): throw ServerConfigurationError("\(certificateName) is set but \(keyName) is not: HTTPS needs both")
        case (nil, _?): throw ServerConfigurationError("\(keyName) is set but \(certificateName) is not: HTTPS needs both")
        }
    }
}
