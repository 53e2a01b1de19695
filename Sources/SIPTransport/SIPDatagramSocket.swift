import Glibc
import IntercomPlatform

/// A non-blocking UDP socket bound to a local port (0: the kernel chooses), for SIP over UDP (RFC 3261 §18).
final class SIPDatagramSocket {
    let descriptor: Int32
    let local: SIPSocketAddress

    /// Binds the wildcard address of `family` (IPv6 sockets also take IPv4: `IPV6_V6ONLY` off).
    init(family: Int32, port: Int) throws(SIPTransportError) {
        let fd = socket(family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemCallError(call: "socket", errno: errno)) }
        var storage = sockaddr_storage()
        var length: socklen_t
        if family == AF_INET6 {
            var off: Int32 = 0
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &off, socklen_t(MemoryLayout<Int32>.size))
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    $0.pointee.sin6_family = sa_family_t(AF_INET6)
                    $0.pointee.sin6_port = UInt16(port).bigEndian
                }
            }
        } else {
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    $0.pointee.sin_family = sa_family_t(AF_INET)
                    $0.pointee.sin_port = UInt16(port).bigEndian
                }
            }
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw .system(SystemCallError(call: "bind", errno: code, path: "udp port \(port)"))
        }
        // ICMP errors (port unreachable) queue on the error queue instead of vanishing (ip(7) IP_RECVERR), so a
        // registrar that is not listening is known at once instead of after timer F (RFC 3261 §18.4).
        var on: Int32 = 1
        if family == AF_INET6 {
            _ = setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size))
        } else {
            _ = setsockopt(fd, Int32(IPPROTO_IP), IP_RECVERR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        descriptor = fd
        do throws(SIPTransportError) {
            local = try SIPSocketAddress.boundAddress(of: fd)
        } catch {
            close(fd)
            throw error
        }
    }

    func send(_ bytes: [UInt8], to destination: SIPSocketAddress) throws(SIPTransportError) {
        var target = destination.storage
        let sent = bytes.withUnsafeBytes { buffer in
            withUnsafePointer(to: &target) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0, destination.length)
                }
            }
        }
        guard sent == bytes.count else {
            throw .system(SystemCallError(call: "sendto", errno: sent < 0 ? errno : EMSGSIZE, path: "\(destination)"))
        }
    }

    /// One waiting datagram with its source, or nil when none is waiting.
    func receive() throws(SIPTransportError) -> ([UInt8], SIPSocketAddress)? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length) }
            }
        }
        if count >= 0 { return (Array(buffer[..<count]), SIPSocketAddress(storage: storage, length: length)) }
        let code = errno
        // ECONNREFUSED: an ICMP error for an earlier datagram; nothing to read, the transaction timers decide.
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNREFUSED { return nil }
        throw .system(SystemCallError(call: "recvfrom", errno: code))
    }

    /// The destination of one datagram an ICMP error came back for (port or host unreachable), taken from the
    /// error queue; nil when the queue is empty.
    func takeUnreachableDestination() -> SIPSocketAddress? {
        var storage = sockaddr_storage()
        var scratch = [UInt8](repeating: 0, count: 512)
        var control = [UInt8](repeating: 0, count: 512)
        let count = scratch.withUnsafeMutableBytes { payload in
            control.withUnsafeMutableBytes { controlBytes in
                withUnsafeMutablePointer(to: &storage) { name in
                    var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var message = msghdr(
                            msg_name: UnsafeMutableRawPointer(name), msg_namelen: socklen_t(MemoryLayout<sockaddr_storage>.size),
                            msg_iov: vectorPointer, msg_iovlen: 1, msg_control: controlBytes.baseAddress,
                            msg_controllen: controlBytes.count, msg_flags: 0)
                        let received = recvmsg(descriptor, &message, Int32(MSG_ERRQUEUE) | Int32(MSG_DONTWAIT))
                        return received < 0 ? -1 : Int(message.msg_namelen)
                    }
                }
            }
        }
        guard count > 0 else { return nil }
        return SIPSocketAddress(storage: storage, length: socklen_t(count))
    }

    deinit { close(descriptor) }
}
