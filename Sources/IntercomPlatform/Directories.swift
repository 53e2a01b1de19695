import Glibc

/// Directory creation with the semantics of `mkdir -p -m MODE`.
public enum Directories {
    /// Creates `path` and any missing parents. Parents get 0755; the last component gets exactly
    /// `permissions` (not masked by umask) but only when this call creates it: an existing directory keeps
    /// the mode its owner (often systemd's `StateDirectory=`) gave it. A non-directory in the way is `ENOTDIR`.
    public static func createIfMissing(_ path: String, permissions: mode_t = 0o700) throws(SystemCallError) {
        guard !path.isEmpty else { throw SystemCallError(call: "mkdir", errno: ENOENT, path: path) }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var prefix = path.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let isLast = index == components.count - 1
            let mode: mode_t = isLast ? permissions : 0o755
            if Glibc.mkdir(prefix, mode) == 0 {
                if isLast { try retryingOnInterrupt("chmod", path: prefix) { Glibc.chmod(prefix, permissions) } }
                continue
            }
            let code = errno
            guard code == EEXIST else { throw SystemCallError(call: "mkdir", errno: code, path: prefix) }
            try requireDirectory(prefix)
        }
    }

    /// Throws `ENOTDIR` unless `path` is (or is a symlink to) a directory.
    static func requireDirectory(_ path: String) throws(SystemCallError) {
        var status = stat()
        try retryingOnInterrupt("stat", path: path) { fstatat(AT_FDCWD, path, &status, 0) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw SystemCallError(call: "mkdir", errno: ENOTDIR, path: path, detail: "exists and is not a directory")
        }
    }
}
