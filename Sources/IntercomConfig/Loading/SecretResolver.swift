/// Finds secret files: a `*_file` key (absolute, or relative to `$CREDENTIALS_DIRECTORY`), or a systemd
/// credential of a known name. Secrets are never read from inline keys.
struct SecretResolver {
    /// `$CREDENTIALS_DIRECTORY`, set by systemd for units with `LoadCredential=`.
    var credentialsDirectory: String?
    /// false for `intercomd provision`'s overlays, whose files live on the device: nothing is read.
    var checksFiles = true
    /// Reads a file; returns the bytes or a human reason (e.g. "Permission denied (errno 13)").
    var readFile: (String) -> Result<[UInt8], SecretReadFailure>

    struct SecretReadFailure: Error {
        var reason: String
        /// The file does not exist (so an unset `*_file` key can fall back quietly).
        var isMissing: Bool
    }

    enum Located: Equatable {
        case found(path: String)
        /// Neither the key nor the credential exists.
        case absent
        /// Something was configured but is unusable; the problem has been reported.
        case reported
    }

    /// A readable, non-empty secret; a configured but unusable one is reported to `reader`.
    func locate(_ configured: String?, credential: String, reader: ConfigReader, key: String) -> Located {
        let path: String
        if let configured {
            if configured.hasPrefix("/") {
                path = configured
            } else if let credentialsDirectory {
                path = credentialsDirectory + "/" + configured
            } else {
                reader.report(key, "relative path \"\(configured)\" needs $CREDENTIALS_DIRECTORY (systemd "
                    + "LoadCredential=); use an absolute path otherwise")
                return .reported
            }
        } else if let credentialsDirectory {
            path = credentialsDirectory + "/" + credential
            if case .failure(let failure) = readFile(path), failure.isMissing { return .absent }
        } else {
            return .absent
        }
        switch readFile(path) {
        case .failure(let failure):
            reader.report(key, "cannot read secret file \(path): \(failure.reason)")
            return .reported
        case .success(let bytes) where bytes.allSatisfy({ $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }):
            reader.report(key, "secret file \(path) is empty")
            return .reported
        case .success:
            return .found(path: path)
        }
    }
}
