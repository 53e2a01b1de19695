/// A machine-readable timestamp drawn into the top rows of a frame, so a receiver can measure
/// glass-to-glass latency from the decoded picture alone.
///
/// Layout: 64 cells of 16×16 luma pixels, left to right and then onto the next 16-row strip (two strips at
/// 640 px wide). Cells hold the 48-bit value, most significant bit first, then its CRC-16/CCITT-FALSE, black
/// (Y 16) for 0 and white (Y 235) for 1. Cells align with VP8's 16×16 macroblocks and the reader only looks
/// at each cell's central 8×8 pixels, so the band survives heavy quantisation; the CRC turns a misread
/// into nil rather than a wrong latency.
public enum TimestampBand {
    public static let cellSize = 16
    public static let valueBits = 48
    static let checksumBits = 16
    static let cellCount = valueBits + checksumBits
    static let black: UInt8 = 16
    static let white: UInt8 = 235

    /// Rows the band occupies in a frame `width` pixels wide, or nil when it does not fit (width < 16).
    public static func height(forWidth width: Int) -> Int? {
        let cellsPerRow = width / cellSize
        guard cellsPerRow > 0 else { return nil }
        return (cellCount + cellsPerRow - 1) / cellsPerRow * cellSize
    }

    /// Whether a `width`×`height` frame can carry the band.
    public static func fits(width: Int, height: Int) -> Bool {
        guard let bandHeight = self.height(forWidth: width) else { return false }
        return bandHeight <= height
    }

    /// Paints `value` (its low 48 bits) over the top rows of `frame`: returns false, leaving the frame
    /// alone, when the frame is too small.
    @discardableResult
    public static func draw(_ value: UInt64, into frame: inout I420Frame) -> Bool {
        guard let bandHeight = height(forWidth: frame.width), bandHeight <= frame.height else { return false }
        let bits = cellBits(for: value & ((1 << valueBits) - 1))
        let cellsPerRow = frame.width / cellSize
        let lumaStride = frame.lumaStride
        let chromaStride = frame.chromaStride
        let width = frame.width
        frame.withMutablePlanes { y, u, v in
            for row in 0..<bandHeight {
                let line = row * lumaStride
                let strip = row / cellSize
                for column in 0..<width {
                    let cell = strip * cellsPerRow + column / cellSize
                    let isWhite = column / cellSize < cellsPerRow && cell < cellCount && bits[cell]
                    y[line + column] = isWhite ? white : black
                }
            }
            for row in 0..<bandHeight / 2 {
                for column in 0..<(width + 1) / 2 {
                    u[row * chromaStride + column] = 128
                    v[row * chromaStride + column] = 128
                }
            }
        }
        return true
    }

    /// The value drawn into `frame`, or nil when the frame has no band or it does not read back intact.
    public static func read(from frame: I420Frame) -> UInt64? {
        guard let bandHeight = height(forWidth: frame.width), bandHeight <= frame.height else { return nil }
        let cellsPerRow = frame.width / cellSize
        let lumaStride = frame.lumaStride
        let bits: [Bool] = frame.withPlanes { y, _, _ in
            (0..<cellCount).map { cell in
                let top = (cell / cellsPerRow) * cellSize + cellSize / 4
                let left = (cell % cellsPerRow) * cellSize + cellSize / 4
                var sum = 0
                for row in top..<top + cellSize / 2 {
                    for column in left..<left + cellSize / 2 { sum += Int(y[row * lumaStride + column]) }
                }
                return sum / (cellSize * cellSize / 4) > (Int(black) + Int(white)) / 2
            }
        }
        var value: UInt64 = 0
        for bit in bits[0..<valueBits] { value = value << 1 | (bit ? 1 : 0) }
        var checksum: UInt16 = 0
        for bit in bits[valueBits...] { checksum = checksum << 1 | (bit ? 1 : 0) }
        return checksum == crc16(of: value) ? value : nil
    }

    static func cellBits(for value: UInt64) -> [Bool] {
        let checksum = crc16(of: value)
        let valueCells = (0..<valueBits).map { value >> UInt64(valueBits - 1 - $0) & 1 == 1 }
        let checksumCells = (0..<checksumBits).map { checksum >> UInt16(checksumBits - 1 - $0) & 1 == 1 }
        return valueCells + checksumCells
    }

    /// CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) over the value's six bytes, big-endian.
    static func crc16(of value: UInt64) -> UInt16 {
        var crc: UInt16 = 0xFFFF
        for index in (0..<6).reversed() {
            crc ^= UInt16(truncatingIfNeeded: value >> UInt64(index * 8)) << 8
            for _ in 0..<8 { crc = crc & 0x8000 != 0 ? crc << 1 ^ 0x1021 : crc << 1 }
        }
        return crc
    }
}
