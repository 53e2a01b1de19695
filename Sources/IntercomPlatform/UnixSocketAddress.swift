import Glibc

/// An `AF_UNIX` socket address written the way `$NOTIFY_SOCKET` spells it (sd_notify(3)): an absolute path,
/// or `@name` for a name in Linux's abstract namespace (unix(7): `sun_path[0] == 0`, no trailing NUL).
public struct UnixSocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// The spelling it was made from, e.g. `/run/systemd/notify` or `@intercom-test`.
    public let name: String
    /// The bytes that go into `sun_path`, including the leading 0 (abstract) or trailing NUL (path).
    let sunPathBytes: [UInt8]

    /// The capacity of `sockaddr_un.sun_path` (108 on Linux).
    static let sunPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    public init(_ name: String) throws(SystemCallError) {
        let utf8 = Array(name.utf8)
        guard !utf8.contains(0) else {
            throw SystemCallError(call: "socket address", errno: EINVAL, path: name, detail: "contains a NUL byte")
        }
        let bytes: [UInt8]
        if utf8.first == UInt8(ascii: "@"), utf8.count > 1 {
            bytes = [0] + utf8.dropFirst()
        } else if utf8.first == UInt8(ascii: "/") {
            bytes = utf8 + [0]
        } else {
            throw SystemCallError(
                call: "socket address", errno: EAFNOSUPPORT, path: name,
                detail: "expected an absolute path or an @abstract name")
        }
        guard bytes.count <= Self.sunPathCapacity else {
            throw SystemCallError(
                call: "socket address", errno: ENAMETOOLONG, path: name,
                detail: "longer than the \(Self.sunPathCapacity - 1)-byte sun_path")
        }
        self.name = name
        self.sunPathBytes = bytes
    }

    public var isAbstract: Bool { sunPathBytes.first == 0 }

    /// The filesystem path for path sockets, nil for abstract ones.
    public var filesystemPath: String? { isAbstract ? nil : name }

    public var description: String { name }

    /// Calls `body` with a `sockaddr_un` for `bind`/`sendto` and its exact length.
    public func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: sunPathBytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + sunPathBytes.count)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
