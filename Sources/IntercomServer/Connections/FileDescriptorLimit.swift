#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The open-file limit (issue #14, 5): a server that keeps the 1024 soft default runs out of descriptors
/// after about a thousand idle sockets and then cannot even answer /health or open its database.
public enum FileDescriptorLimit {
    /// Raises the soft RLIMIT_NOFILE to the hard limit; returns the soft limit in force afterwards.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: min(limit.rlim_cur, rlim_t(Int32.max)))
    }

    /// Descriptors kept back from the connection cap for the database, its WAL, logs and the listener.
    static let reserve = 64

    /// The default connection cap under `openFiles` descriptors: all but `reserve`, at most 16 384.
    static func connectionCap(openFiles: Int) -> Int {
        min(max(openFiles - reserve, 16), 16_384)
    }
}
