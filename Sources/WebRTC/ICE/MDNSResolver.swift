import Glibc
import IntercomPlatform
import Synchronization
import WebRTCCore

/// What resolves a remote candidate's `.local` name: `MDNSResolver` on a real network, a table in tests.
public protocol MDNSNameResolving: Sendable {
    /// The name's address in candidate text form, or why there is none.
    func resolve(_ name: MDNSHostName) async -> Result<String, MDNSResolutionError>
}

/// Resolves the `.local` names browsers put in their host candidates instead of addresses
/// (draft-ietf-mmusic-mdns-ice-candidates §3.2.2), with one-shot multicast DNS queries (RFC 6762 §5.1) on
/// every multicast-capable IPv4 interface: libnice 0.1.21 cannot parse such candidates, so without this the
/// browser's address is only learnt from its connectivity checks (a peer-reflexive pair), and not at all when
/// the device's checks must open the path first.
///
/// Each query runs on a short-lived thread named `mdns`, one query at a time (the socket binds port 5353, which
/// a unicast answer must reach); answers are kept for their TTL, at most `cacheLimit` names. Nothing runs
/// between calls.
public final class MDNSResolver: MDNSNameResolving {
    public static let shared = MDNSResolver()

    /// How long a query waits for an answer, over its sends (at 0, 250 ms, 1 s and 2 s). Chromium answers
    /// a name only once it has probed it (RFC 6762 §8.1): about 1 s after the candidate was gathered.
    public let timeout: Duration
    static let resendOffsets: [Duration] = [.zero, .milliseconds(250), .seconds(1), .seconds(2)]
    static let cacheLimit = 64
    /// Answers are kept at most this long, whatever their TTL (a browser's names live as long as its page).
    static let cacheLifetime: Duration = .seconds(120)

    private struct Cached { let address: String; let expires: ContinuousClock.Instant }
    private let cache = Mutex<[MDNSHostName: Cached]>([:])
    private let oneQueryAtATime = Mutex<Void>(())

    public init(timeout: Duration = .seconds(3)) {
        self.timeout = timeout
    }

    /// The name's address (IPv4 preferred), from the cache or a query.
    public func resolve(_ name: MDNSHostName) async -> Result<String, MDNSResolutionError> {
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0[name] }), cached.expires > now { return .success(cached.address) }
        let timeout = self.timeout
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<MDNSAddressRecord, MDNSResolutionError>, Never>) in
            NamedThread.start("mdns") {
                let result = self.oneQueryAtATime.withLock { _ in Self.query(name, timeout: timeout) }
                continuation.resume(returning: result)
            }
        }
        return result.map { record in
            let lifetime = min(Duration.seconds(Int64(record.timeToLive)), Self.cacheLifetime)
            cache.withLock { entries in
                let now = ContinuousClock.now
                entries = entries.filter { $0.value.expires > now }
                if entries.count >= Self.cacheLimit, let oldest = entries.min(by: { $0.value.expires < $1.value.expires }) {
                    entries.removeValue(forKey: oldest.key)
                }
                entries[name] = Cached(address: record.addressText, expires: now + lifetime)
            }
            return record.addressText
        }
    }

    /// Blocking: asks on every interface, resends, returns the first answer for `name`.
    static func query(_ name: MDNSHostName, timeout: Duration) -> Result<MDNSAddressRecord, MDNSResolutionError> {
        let interfaces = MulticastInterfaces.ipv4()
        guard !interfaces.isEmpty else { return .failure(.noMulticastInterface) }
        let socket: MDNSQuerySocket
        do {
            socket = try MDNSQuerySocket(joining: interfaces)
        } catch {
            return .failure(.system(error))
        }
        defer { socket.close() }
        let query = MDNSQuery.encode(name)
        let started = ContinuousClock.now
        var sends = resendOffsets[...]
        while true {
            let now = ContinuousClock.now
            if let next = sends.first, started + next <= now {
                sends = sends.dropFirst()
                for interface in interfaces { socket.send(query, on: interface) }
            }
            let deadline = min(started + timeout, sends.first.map { started + $0 } ?? started + timeout)
            if now >= started + timeout { return .failure(.noAnswer(name, waited: timeout)) }
            switch socket.receive(until: deadline) {
            case .success(let message?):
                let records = (try? MDNSResponse.addressRecords(in: message)) ?? []
                let answers = records.filter { $0.name == name && $0.timeToLive > 0 }
                if let best = answers.first(where: { $0.address.count == 4 }) ?? answers.first { return .success(best) }
            case .success(nil):
                continue
            case .failure(let error):
                return .failure(.system(error))
            }
        }
    }
}
