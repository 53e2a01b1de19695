import Glibc
import IntercomPlatform

/// The UDP socket of one mDNS query: bound to port 5353 with `SO_REUSEADDR` (beside Avahi, which sets it too)
/// and joined to 224.0.0.251 on each interface, so both multicast answers and unicast answers to the QU
/// question arrive; where 5353 cannot be bound, an ephemeral port, which responders answer by unicast
/// (RFC 6762 §6.7, "legacy unicast").
final class MDNSQuerySocket {
    static let group = in_addr(s_addr: UInt32(0xE000_00FB).bigEndian)  // 224.0.0.251
    static let port: UInt16 = 5353
    private let descriptor: Int32

    init(joining interfaces: [MulticastInterface]) throws(SystemCallError) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno) }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if !Self.bind(fd, port: Self.port) {
            guard Self.bind(fd, port: 0) else {
                let code = errno
                Glibc.close(fd)
                throw SystemCallError(call: "bind", errno: code, path: "udp port \(Self.port)")
            }
        }
        var ttl: UInt8 = 255  // RFC 6762 §11: link-local, receivers check for 255
        _ = setsockopt(fd, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(MemoryLayout<UInt8>.size))
        for interface in interfaces {
            var membership = ip_mreqn(imr_multiaddr: Self.group, imr_address: in_addr(s_addr: 0), imr_ifindex: interface.index)
            _ = setsockopt(fd, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        descriptor = fd
    }

    private static func bind(_ fd: Int32, port: UInt16) -> Bool {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Sends `message` to the group out of `interface`; a failure on one interface only costs that one.
    func send(_ message: [UInt8], on interface: MulticastInterface) {
        var outgoing = ip_mreqn(imr_multiaddr: Self.group, imr_address: in_addr(s_addr: 0), imr_ifindex: interface.index)
        _ = setsockopt(descriptor, Int32(IPPROTO_IP), IP_MULTICAST_IF, &outgoing, socklen_t(MemoryLayout<ip_mreqn>.size))
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = Self.port.bigEndian
        target.sin_addr = Self.group
        _ = message.withUnsafeBytes { bytes in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }

    /// One datagram, or nil when `deadline` passed first.
    func receive(until deadline: ContinuousClock.Instant) -> Result<[UInt8]?, SystemCallError> {
        let wait = max(Duration.zero, deadline - ContinuousClock.now)
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, Int32(clamping: wait.wholeMilliseconds + 1))
        if ready < 0 {
            return errno == EINTR ? .success(nil) : .failure(SystemCallError(call: "poll", errno: errno))
        }
        guard ready > 0 else { return .success(nil) }
        var buffer = [UInt8](repeating: 0, count: 9_000)  // RFC 6762 §17: up to 9000 bytes
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else {
            return errno == EINTR ? .success(nil) : .failure(SystemCallError(call: "recv", errno: errno))
        }
        return .success(Array(buffer.prefix(count)))
    }

    func close() {
        Glibc.close(descriptor)
    }
}
