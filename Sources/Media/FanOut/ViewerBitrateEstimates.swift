/// The bitrate one shared encoder should run at when several peers watch it (SYSTEM.md §3, fan-out): the
/// lowest of their bandwidth estimates, so the slowest viewer is not flooded. A peer that leaves stops
/// holding the others back. Sans-IO: estimates in, target out.
public struct ViewerBitrateEstimates: Sendable, Equatable {
    /// The configured ceiling, also the target while no peer has sent an estimate.
    public let maximumKbps: Int
    /// The floor: below this VP8 at our resolution is unwatchable, and loss-based estimates overshoot down.
    public let minimumKbps: Int
    private var estimatesKbps: [UInt64: Int] = [:]

    public init(minimumKbps: Int, maximumKbps: Int) {
        precondition(minimumKbps <= maximumKbps, "the bitrate floor is above the ceiling")
        self.minimumKbps = minimumKbps
        self.maximumKbps = maximumKbps
    }

    /// Records `peer`'s latest estimate (REMB), keeping 5 % headroom under it.
    public mutating func update(peer: UInt64, estimateBitsPerSecond: Int) {
        estimatesKbps[peer] = Int(Double(max(estimateBitsPerSecond, 0)) * 0.95 / 1000)
    }

    /// Forgets a peer that left.
    public mutating func remove(peer: UInt64) {
        estimatesKbps.removeValue(forKey: peer)
    }

    /// The encoder target: the lowest estimate, clamped to the configured range.
    public var targetKbps: Int {
        guard let lowest = estimatesKbps.values.min() else { return maximumKbps }
        return min(max(lowest, minimumKbps), maximumKbps)
    }

    public var peerCount: Int { estimatesKbps.count }
}
