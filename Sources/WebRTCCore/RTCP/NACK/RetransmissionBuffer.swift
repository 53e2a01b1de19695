/// Sender-side history for answering generic NACKs (RFC 4585 §6.2.1; RFC 4588 is not used — we resend
/// on the same SSRC, as Janus and Pion do): the last `capacity` packets by sequence number.
///
/// Store the bytes exactly as sent (already SRTP-protected) so a resend is a plain copy.
public struct RetransmissionBuffer: Hashable, Sendable {
    public let capacity: Int
    private var slots: [Slot?]
    private var unwrapper = SequenceNumberUnwrapper()
    private var highest: Int64?

    private struct Slot: Hashable, Sendable {
        var extendedSequenceNumber: Int64
        var bytes: [UInt8]
    }

    /// About 1–2 s of video at the intercom's rates fits in the default.
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
        slots = Array(repeating: nil, count: self.capacity)
    }

    public mutating func store(_ bytes: [UInt8], sequenceNumber: UInt16) {
        let extended = unwrapper.unwrap(sequenceNumber)
        if extended > (highest ?? .min) { highest = extended }
        slots[slotIndex(extended)] = Slot(extendedSequenceNumber: extended, bytes: bytes)
    }

    /// The stored packet, if it is still within the last `capacity` sequence numbers.
    public func packet(for sequenceNumber: UInt16) -> [UInt8]? {
        guard let highest else { return nil }
        let delta = Int64(Int16(bitPattern: sequenceNumber &- UInt16(truncatingIfNeeded: highest)))
        let extended = highest + delta
        guard extended > highest - Int64(capacity), let slot = slots[slotIndex(extended)],
            slot.extendedSequenceNumber == extended
        else { return nil }
        return slot.bytes
    }

    /// Every stored packet a NACK asks for, in request order; the ones we no longer have are skipped.
    public func packets(for nack: GenericNACK) -> [[UInt8]] {
        nack.lostSequenceNumbers.compactMap(packet(for:))
    }

    private func slotIndex(_ extended: Int64) -> Int {
        Int(((extended % Int64(capacity)) + Int64(capacity)) % Int64(capacity))
    }
}
