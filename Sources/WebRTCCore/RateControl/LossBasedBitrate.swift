/// The loss-based half of Google Congestion Control (draft-ietf-rmcat-gcc-02 §6): from the fraction of
/// packets a receiver reports lost (RFC 3550 §6.4.1 report blocks), a sending rate that backs off under
/// heavy loss and creeps back up when the path is clean. The delay-based half is the receiver's REMB;
/// the sender uses the lower of the two. Sans-IO: reports in, rate out.
public struct LossBasedBitrate: Sendable, Equatable {
    public let minimumBitsPerSecond: Int
    public let maximumBitsPerSecond: Int
    public private(set) var bitsPerSecond: Int

    /// Above this loss the rate drops (§6: 10 %); below `increaseBelow` it grows (§6: 2 %).
    public static let decreaseAbove = 0.10
    public static let increaseBelow = 0.02

    /// Starts at `maximumBitsPerSecond`: until a report says otherwise the path is assumed clean.
    public init(minimumBitsPerSecond: Int, maximumBitsPerSecond: Int) {
        precondition(0 < minimumBitsPerSecond && minimumBitsPerSecond <= maximumBitsPerSecond,
                     "the bitrate range is empty")
        self.minimumBitsPerSecond = minimumBitsPerSecond
        self.maximumBitsPerSecond = maximumBitsPerSecond
        bitsPerSecond = maximumBitsPerSecond
    }

    /// One report block's `fractionLost` (lost/256 since the previous report). Returns the new rate.
    @discardableResult
    public mutating func report(fractionLost: UInt8) -> Int {
        let loss = Double(fractionLost) / 256
        let next: Double
        if loss > Self.decreaseAbove {
            next = Double(bitsPerSecond) * (1 - 0.5 * loss)
        } else if loss < Self.increaseBelow {
            next = Double(bitsPerSecond) * 1.05
        } else {
            next = Double(bitsPerSecond)
        }
        bitsPerSecond = min(max(Int(next), minimumBitsPerSecond), maximumBitsPerSecond)
        return bitsPerSecond
    }
}
