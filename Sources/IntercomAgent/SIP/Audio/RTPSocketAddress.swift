import Glibc

/// A numeric IPv4 or IPv6 socket address of an RTP peer: where we send, and where a packet came from
/// (symmetric RTP latches onto the latter, RFC 4961).
public struct RTPSocketAddress: Sendable, Equatable, CustomStringConvertible {
    var storage = sockaddr_storage()
    var length: socklen_t

    init(storage: sockaddr_storage, length: socklen_t) {
        self.storage = storage
        self.length = length
    }

    /// `host` must be a numeric address (SDP's c= carries one; names are not resolved on the media path).
    init(numericHost host: String, port: UInt16) throws(SIPAudioCallError) {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(bare, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .address(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        withUnsafeMutableBytes(of: &storage) { target in
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: Int(first.pointee.ai_addrlen)))
        }
        length = first.pointee.ai_addrlen
    }

    /// The same host at `port`.
    func withPort(_ port: UInt16) -> RTPSocketAddress {
        var copy = self
        withUnsafeMutablePointer(to: &copy.storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_port = port.bigEndian }
        }
        return copy
    }

    public var family: Int32 { Int32(storage.ss_family) }

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

    /// The port; sin_port and sin6_port sit at the same offset.
    public var port: UInt16 {
        var copy = storage
        return withUnsafePointer(to: &copy) { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    public var description: String { family == AF_INET6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    public static func == (lhs: RTPSocketAddress, rhs: RTPSocketAddress) -> Bool {
        lhs.family == rhs.family && lhs.port == rhs.port && lhs.host == rhs.host
    }
}
