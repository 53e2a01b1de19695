import Glibc

/// The IPv4 interfaces an mDNS query goes out on: up, multicast-capable, not loopback (getifaddrs(3)).
struct MulticastInterface: Sendable, Equatable {
    let name: String
    let index: Int32
    /// Its address in network byte order, as `in_addr.s_addr` holds it.
    let address: in_addr_t
}

enum MulticastInterfaces {
    static func ipv4() -> [MulticastInterface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [MulticastInterface] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_MULTICAST) != 0,
                  flags & Int32(IFF_LOOPBACK) == 0, let cName = entry.pointee.ifa_name
            else { continue }
            let name = String(cString: cName)
            let index = Int32(if_nametoindex(cName))
            let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            if index > 0, !found.contains(where: { $0.index == index }) {
                found.append(MulticastInterface(name: name, index: index, address: ipv4))
            }
        }
        return found
    }
}
