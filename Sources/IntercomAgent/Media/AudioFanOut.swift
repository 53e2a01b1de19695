import Synchronization

/// Opus packets to every subscribed peer; a slow peer loses its oldest packets, never stalls the encoder.
public final class AudioFanOut: Sendable {
    private let subscribers = Mutex<[UInt64: AsyncStream<[UInt8]>.Continuation]>([:])
    private let nextId = Atomic<UInt64>(0)

    public init() {}

    public func subscribe() -> AsyncStream<[UInt8]> {
        let id = nextId.add(1, ordering: .relaxed).newValue
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self, bufferingPolicy: .bufferingNewest(25))
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func publish(_ packet: [UInt8]) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(packet) }
    }

    func finish() {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.finish() }
    }
}
