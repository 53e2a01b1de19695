/// Extends 16-bit RTP sequence numbers to 64 bits across wraps (RFC 3550 §A.1 keeps a cycle count;
/// this keeps the highest extended value and places each new number within ±32768 of it).
///
/// The first number maps to itself; a packet older than the first one can map below zero.
public struct SequenceNumberUnwrapper: Hashable, Sendable {
    private var highest: Int64?

    public init() {}

    /// The highest extended sequence number seen so far.
    public var highestExtended: Int64? { highest }

    /// The 64-bit value of `sequenceNumber`: the one nearest the highest seen so far.
    public mutating func unwrap(_ sequenceNumber: UInt16) -> Int64 {
        guard let highest else {
            self.highest = Int64(sequenceNumber)
            return Int64(sequenceNumber)
        }
        let delta = Int64(Int16(bitPattern: sequenceNumber &- UInt16(truncatingIfNeeded: highest)))
        let extended = highest + delta
        if extended > highest { self.highest = extended }
        return extended
    }
}
