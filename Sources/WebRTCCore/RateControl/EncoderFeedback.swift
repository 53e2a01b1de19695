/// Everything the peers of the device's one shared encoder ask of it, in one place (SYSTEM.md §3, fan-out):
/// each peer's delay-based estimate (REMB) and loss reports (GCC's loss-based rule, `LossBasedBitrate`),
/// and keyframe requests (PLI/FIR, a peer joining or falling behind). The encoder reads `targetKbps` and
/// `takeKeyframeRequest()`; it runs at the lowest rate any peer allows, so the slowest viewer is not
/// flooded, and a peer that leaves stops holding the others back. Sans-IO: reports in, decisions out.
public struct EncoderFeedback: Sendable, Equatable {
    /// The configured ceiling, also the target while no peer has reported.
    public let maximumKbps: Int
    /// The floor: below this VP8 at our resolution is unwatchable, and loss-based estimates overshoot down.
    public let minimumKbps: Int

    private struct Peer: Sendable, Equatable {
        var remb: Int?
        var lossBased: LossBasedBitrate
        var hasReported = false
        /// What this peer allows: the lower of its REMB and its loss-based rate.
        var allowedBitsPerSecond: Int { min(remb ?? lossBased.bitsPerSecond, lossBased.bitsPerSecond) }
    }

    private var peers: [UInt64: Peer] = [:]
    /// The first frame is a keyframe; after that, only on request.
    private var keyframeRequested = true

    public init(minimumKbps: Int, maximumKbps: Int) {
        precondition(0 < minimumKbps, "the bitrate floor must be positive")
        self.minimumKbps = min(minimumKbps, maximumKbps)
        self.maximumKbps = maximumKbps
    }

    /// A peer's REMB (delay-based) estimate.
    public mutating func estimate(peer: UInt64, bitsPerSecond: Int) {
        update(peer) { $0.remb = max(bitsPerSecond, 0) }
    }

    /// One RTCP report block's `fractionLost` from `peer`'s video receiver.
    public mutating func lossReport(peer: UInt64, fractionLost: UInt8) {
        update(peer) { $0.lossBased.report(fractionLost: fractionLost) }
    }

    /// `peer` left: its reports no longer count.
    public mutating func remove(peer: UInt64) {
        peers.removeValue(forKey: peer)
    }

    /// A peer lost a picture (PLI/FIR) or a subscriber joined or fell behind: the next frame is a keyframe.
    public mutating func requestKeyframe() {
        keyframeRequested = true
    }

    /// For the encoder: whether the next frame must be a keyframe. Clears the request.
    public mutating func takeKeyframeRequest() -> Bool {
        defer { keyframeRequested = false }
        return keyframeRequested
    }

    /// The encoder target: the lowest rate any reporting peer allows, less 5 % headroom, within the range.
    public var targetKbps: Int {
        let allowed = peers.values.filter(\.hasReported).map { Int(Double($0.allowedBitsPerSecond) * 0.95 / 1000) }
        guard let lowest = allowed.min() else { return maximumKbps }
        return min(max(lowest, minimumKbps), maximumKbps)
    }

    /// Peers that have reported at least once.
    public var reportingPeerCount: Int { peers.values.filter(\.hasReported).count }

    private mutating func update(_ peer: UInt64, _ change: (inout Peer) -> Void) {
        var entry = peers[peer] ?? Peer(lossBased: LossBasedBitrate(minimumBitsPerSecond: minimumKbps * 1000,
                                                                     maximumBitsPerSecond: maximumKbps * 1000))
        change(&entry)
        entry.hasReported = true
        peers[peer] = entry
    }
}
