/// Finds secret files: a `*_file` key (absolute, or relative to `$CREDENTIALS_DIRECTORY`), or a systemd
/// credential of a known name. Secrets are never read from inline keys.
struct SecretResolver {
    /// `$CREDENTIALS_DIRECTORY`, set by systemd for units with `LoadCredential=`.
    var credentialsDirectory: String?
    /// Reads a file; returns the bytes or a human reason (e.g. "Permission denied (errno 13)").
    var readFile: (String) -> Result<[UInt8], SecretReadFailure>

    struct SecretReadFailure: Error {
        var reason: String
        /// The file does not exist (so an unset `*_file` key can fall back quietly).
        var isMissing: Bool
    }

    /// The path of a readable, non-empty secret, or nil (with a problem reported when one was configured).
    func locate(_ configured: String?, credential: String, reader: ConfigReader, key: String) -> String? {
        let path: String
        if let configured {
            if configured.hasPrefix("/") {
                path = configured
            } else if let credentialsDirectory {
                path = credentialsDirectory + "/" + configured
            } else {
                reader.report(key, "relative path \"\(configured)\" needs $CREDENTIALS_DIRECTORY (systemd "
                    + "LoadCredential=); use an absolute path otherwise")
                return nil
            }
        } else if let credentialsDirectory {
            path = credentialsDirectory + "/" + credential
            if case .failure(let failure) = readFile(path), failure.isMissing { return nil }
        } else {
            return nil
        }
        switch readFile(path) {
        case .failure(let failure):
            reader.report(key, "cannot read secret file \(path): \(failure.reason)")
            return nil
        case .success(let bytes) where bytes.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }):
            reader.report(key, "secret file \(path) is empty")
            return nil
        case .success:
            return path
        }
    }
}
