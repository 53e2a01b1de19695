import Glibc

/// A thread named `netlink` blocked on an rtnetlink socket (rtnetlink(7)) bound to the IPv4 and IPv6 address
/// groups, calling `onChange` with each datagram's global-scope address events: the host's addresses changed
/// (a new DHCP lease, Wi-Fi roaming, a cable moved), so calls must gather candidates again. It costs nothing
/// while nothing changes; `stop()` wakes it through a `WakeupPipe`.
public final class NetlinkAddressMonitor: Sendable {
    static let netlinkFamily: Int32 = 16  // AF_NETLINK
    static let routeProtocol: Int32 = 0  // NETLINK_ROUTE
    static let addressGroups: UInt32 = 0x10 | 0x100  // RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR

    private let descriptor: Int32
    private let wakeup = WakeupPipe()

    /// Opens and binds the socket; throws with the failing call and errno.
    public init() throws(SystemCallError) {
        let fd = socket(Self.netlinkFamily, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), Self.routeProtocol)
        guard fd >= 0 else { throw SystemCallError(call: "socket", errno: errno, detail: "AF_NETLINK, NETLINK_ROUTE") }
        // struct sockaddr_nl: family, pad, pid (0: the kernel assigns), groups.
        var address = [UInt8](repeating: 0, count: 12)
        address[0] = UInt8(Self.netlinkFamily)
        withUnsafeBytes(of: Self.addressGroups.littleEndian) { address.replaceSubrange(8..<12, with: $0) }
        let bound = address.withUnsafeBytes { raw in
            Glibc.bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            throw SystemCallError(call: "bind", errno: code, detail: "rtnetlink address groups")
        }
        descriptor = fd
    }

    /// Starts the thread; `onChange` runs on it, once per datagram that held global-scope events.
    public func start(_ onChange: @escaping @Sendable ([NetlinkAddressEvent]) -> Void) {
        let fd = descriptor
        let wakeup = self.wakeup
        NamedThread.start("netlink") {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            var polled = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                          pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            while true {
                polled[0].revents = 0
                polled[1].revents = 0
                let ready = poll(&polled, 2, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                if polled[1].revents != 0 { break }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                // ENOBUFS: the kernel dropped messages for us; addresses changed anyway.
                if count < 0, errno == ENOBUFS {
                    onChange([])
                    continue
                }
                guard count > 0 else { continue }
                let events = NetlinkAddressEvent.parse(Array(buffer.prefix(count))).filter(\.reachesBeyondTheLink)
                if !events.isEmpty { onChange(events) }
            }
            close(fd)
        }
    }

    public func stop() {
        wakeup.wake()
    }
}
