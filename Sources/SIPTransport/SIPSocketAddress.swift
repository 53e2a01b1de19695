import Glibc
import IntercomPlatform

/// An IPv4 or IPv6 socket address with its numeric host and port, as `sendto` and Via want them.
public struct SIPSocketAddress: Sendable, CustomStringConvertible {
    var storage = sockaddr_storage()
    var length: socklen_t

    /// Numeric host (IPv6 without brackets).
    public var host: String {
        var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var copy = storage
        let status = withUnsafePointer(to: &copy) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard status == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var port: UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    public var family: Int32 { Int32(storage.ss_family) }

    /// Same numeric host and port (what an ICMP error names against what we sent to).
    public func sameEndpoint(as other: SIPSocketAddress) -> Bool { host == other.host && port == other.port }

    /// The host as Via and URIs write it: IPv6 in brackets.
    public var uriHost: String { family == AF_INET6 ? "[\(host)]" : host }

    public var description: String { "\(uriHost):\(port)" }

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// The wildcard address of `family` with `port`, as bind(2) takes it.
    static func wildcard(family: Int32, port: Int) -> (sockaddr_storage, socklen_t) {
        var storage = sockaddr_storage()
        if family == AF_INET6 {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = UInt16(port).bigEndian
                }
            }
            return (storage, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                $0.pointee.sin_family = sa_family_t(AF_INET)
                $0.pointee.sin_port = UInt16(port).bigEndian
            }
        }
        return (storage, socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    /// The first address of `host` (a name, or a numeric address with or without brackets) for `port`.
    public static func resolve(host: String, port: Int, datagram: Bool) throws(SIPTransportError) -> SIPSocketAddress {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(datagram ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let first = list else { throw .resolve(host: host, reason: String(cString: gai_strerror(status))) }
        defer { freeaddrinfo(list) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        return SIPSocketAddress(storage: storage, length: first.pointee.ai_addrlen)
    }

    /// The local address the kernel would send from to reach `remote` (a connected UDP socket, nothing sent).
    public static func localAddress(toward remote: SIPSocketAddress) throws(SIPTransportError) -> SIPSocketAddress {
        let fd = socket(remote.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemCallError(call: "socket", errno: errno)) }
        defer { close(fd) }
        var target = remote.storage
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, remote.length) }
        }
        guard connected == 0 else { throw .system(SystemCallError(call: "connect", errno: errno, path: "\(remote)")) }
        return try boundAddress(of: fd)
    }

    static func boundAddress(of fd: Int32) throws(SIPTransportError) -> SIPSocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { throw .system(SystemCallError(call: "getsockname", errno: errno)) }
        return SIPSocketAddress(storage: storage, length: length)
    }
}
