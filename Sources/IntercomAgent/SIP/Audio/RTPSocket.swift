import Glibc
import IntercomPlatform
import Synchronization

/// The non-blocking UDP socket of one SIP call's RTP, bound to the local address the SDP answer names.
final class RTPSocket: Sendable {
    let descriptor: Int32
    let local: RTPSocketAddress
    private let closed = Atomic<Bool>(false)

    private init(descriptor: Int32, local: RTPSocketAddress) {
        self.descriptor = descriptor
        self.local = local
    }

    /// Binds `host` on an even port for RTP and the odd one above it for RTCP (RFC 3550 §11; many PBXes
    /// assume the pair). Odd kernel-chosen ports stay open until a pair is found, so they are not handed out
    /// again at once.
    static func bindPair(host: String) throws(SIPAudioCallError) -> (rtp: RTPSocket, rtcp: RTPSocket) {
        let wanted = try RTPSocketAddress(numericHost: host, port: 0)
        var held: [Int32] = []
        defer { for fd in held { Glibc.close(fd) } }
        for _ in 0..<32 {
            let (fd, local) = try bind(wanted, port: 0, host: host)
            guard local.port % 2 == 0, local.port < .max else {
                held.append(fd)
                continue
            }
            guard let (rtcp, rtcpLocal) = try? bind(wanted, port: local.port + 1, host: host) else {
                held.append(fd)
                continue
            }
            return (RTPSocket(descriptor: fd, local: local), RTPSocket(descriptor: rtcp, local: rtcpLocal))
        }
        throw .system(SystemCallError(call: "bind", errno: EADDRINUSE, path: host, detail: "no even/odd port pair in 32 tries"))
    }

    private static func bind(_ wanted: RTPSocketAddress, port: UInt16, host: String) throws(SIPAudioCallError) -> (Int32, RTPSocketAddress) {
        let fd = socket(wanted.family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .system(SystemCallError(call: "socket", errno: errno)) }
        var address = wanted.withPort(port).storage
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, wanted.length) }
        }
        guard bound == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(SystemCallError(call: "bind", errno: code, path: host))
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .system(SystemCallError(call: "getsockname", errno: code))
        }
        return (fd, RTPSocketAddress(storage: storage, length: length))
    }

    /// Closes the socket once (the call's thread at its end); later sends and receives fail with EBADF.
    func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(descriptor)
    }

    deinit { close() }

    func send(_ bytes: [UInt8], to destination: RTPSocketAddress) throws(SIPAudioCallError) {
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

    /// One waiting datagram with its source, or nil when none is waiting. `buffer` is reused across calls.
    func receive(into buffer: inout [UInt8]) throws(SIPAudioCallError) -> (ArraySlice<UInt8>, RTPSocketAddress)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let count = buffer.withUnsafeMutableBytes { bytes in
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(descriptor, bytes.baseAddress, bytes.count, 0, $0, &length) }
            }
        }
        if count >= 0 { return (buffer[..<count], RTPSocketAddress(storage: storage, length: length)) }
        let code = errno
        // ECONNREFUSED: an ICMP port unreachable for an earlier datagram (the peer is not listening yet).
        if code == EAGAIN || code == EWOULDBLOCK || code == EINTR || code == ECONNREFUSED { return nil }
        throw .system(SystemCallError(call: "recvfrom", errno: code))
    }
}
