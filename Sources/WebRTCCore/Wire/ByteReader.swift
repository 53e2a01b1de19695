/// A bounds-checked big-endian reader over a byte slice (network byte order, RFC 791 §3.1 convention).
///
/// Every read either returns a value or throws the caller's own typed error, so each protocol layer
/// reports truncation in its own terms and no read can trap.
struct ByteReader {
    private let bytes: ArraySlice<UInt8>
    /// Offset from the start of the slice of the next unread byte.
    private(set) var offset: Int = 0

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }
    var isAtEnd: Bool { remaining == 0 }

    /// The byte `distance` bytes ahead of the cursor, without consuming it.
    func peek(_ distance: Int = 0) -> UInt8? {
        guard distance >= 0, distance < remaining else { return nil }
        return bytes[bytes.startIndex + offset + distance]
    }

    mutating func readUInt8<E: Error>(or error: @autoclosure () -> E) throws(E) -> UInt8 {
        guard let value = peek() else { throw error() }
        offset += 1
        return value
    }

    mutating func readUInt16<E: Error>(or error: @autoclosure () -> E) throws(E) -> UInt16 {
        let raw = try readBytes(2, or: error())
        return UInt16(raw[raw.startIndex]) << 8 | UInt16(raw[raw.startIndex + 1])
    }

    mutating func readUInt24<E: Error>(or error: @autoclosure () -> E) throws(E) -> UInt32 {
        let raw = try readBytes(3, or: error())
        return raw.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readUInt32<E: Error>(or error: @autoclosure () -> E) throws(E) -> UInt32 {
        let raw = try readBytes(4, or: error())
        return raw.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func readUInt64<E: Error>(or error: @autoclosure () -> E) throws(E) -> UInt64 {
        let raw = try readBytes(8, or: error())
        return raw.reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func readBytes<E: Error>(_ count: Int, or error: @autoclosure () -> E) throws(E) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else { throw error() }
        let start = bytes.startIndex + offset
        offset += count
        return bytes[start..<(start + count)]
    }

    mutating func skip<E: Error>(_ count: Int, or error: @autoclosure () -> E) throws(E) {
        _ = try readBytes(count, or: error())
    }

    /// Everything not yet read; the cursor moves to the end.
    mutating func readRest() -> ArraySlice<UInt8> {
        let start = bytes.startIndex + offset
        offset = bytes.count
        return bytes[start...]
    }
}
