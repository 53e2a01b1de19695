import Glibc

/// A failed POSIX call: which call, the `errno` it left, and the path or detail it was working on.
///
/// `description` reads like `open("/var/lib/intercom/identity.json"): Permission denied (errno 13)`,
/// followed by `: <detail>` when there is more to say (for example why a file was rejected).
public struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function that failed, e.g. `"open"`, `"fsync"`, `"sendto"`.
    public let call: String
    /// The `errno` value the call reported.
    public let errno: Int32
    /// The file or socket path the call was working on, when there is one.
    public let path: String?
    /// Extra context that is not a path, e.g. `"file is larger than the 1048576-byte limit"`.
    public let detail: String?

    public init(call: String, errno: Int32, path: String? = nil, detail: String? = nil) {
        self.call = call
        self.errno = errno
        self.path = path
        self.detail = detail
    }

    /// The C library's text for `errno`, via the thread-safe `strerror_r(3)`.
    public var message: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard strerror_r(errno, &buffer, buffer.count) == 0 else { return "Unknown error \(errno)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    public var description: String {
        let target = path.map { "(\"\($0)\")" } ?? ""
        let suffix = detail.map { ": \($0)" } ?? ""
        return "\(call)\(target): \(message) (errno \(errno))\(suffix)"
    }
}
