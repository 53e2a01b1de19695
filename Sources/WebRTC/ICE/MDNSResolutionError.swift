import IntercomPlatform
import WebRTCCore

/// Why a `.local` name in a remote candidate did not become an address.
public enum MDNSResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A socket call failed (`socket`, `sendto`, `poll`…), with its errno.
    case system(SystemCallError)
    /// This host has no interface that is up and multicast-capable (apart from loopback) to ask on.
    case noMulticastInterface
    /// Nobody answered for the name: the browser is not on a link we share, or its responder is off.
    case noAnswer(MDNSHostName, waited: Duration)

    public var description: String {
        switch self {
        case .system(let error): "mDNS query failed: \(error)"
        case .noMulticastInterface: "no multicast-capable network interface to send an mDNS query on"
        case .noAnswer(let name, let waited):
            "no mDNS answer for \(name) within \(waited.wholeMilliseconds) ms (the peer is not on this link, or does not answer)"
        }
    }
}
