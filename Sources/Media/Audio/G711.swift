/// ITU-T G.711 companding of 16-bit linear PCM: μ-law (PCMU, RTP payload type 0) and A-law (PCMA, payload
/// type 8), RFC 3551 §4.5.14. Bit arithmetic after the public-domain Sun reference (g711.c); decoding goes
/// through 256-entry tables built from the same arithmetic.
public enum G711 {
    /// μ-law's bias: added before segment search so every segment has the same shape (G.711 Table 2).
    private static let muLawBias: Int32 = 0x84
    /// μ-law clips magnitudes above this (the largest value its top segment can hold, minus the bias).
    private static let muLawClip: Int32 = 32635

    /// One μ-law byte for one sample. 0 encodes as 0xFF.
    public static func muLaw(encoding sample: Int16) -> UInt8 {
        var value = Int32(sample)
        let sign: Int32 = value < 0 ? 0x80 : 0
        if value < 0 { value = -value }
        value = min(value, muLawClip) + muLawBias
        var exponent: Int32 = 7
        var mask: Int32 = 0x4000
        while value & mask == 0, exponent > 0 {
            exponent -= 1
            mask >>= 1
        }
        let mantissa = (value >> (exponent + 3)) & 0x0F
        return ~UInt8(truncatingIfNeeded: sign | exponent << 4 | mantissa)
    }

    /// The linear sample of one μ-law byte (0x7F, "negative zero", decodes to 0 like 0xFF).
    public static func muLaw(decoding byte: UInt8) -> Int16 { muLawTable[Int(byte)] }

    /// One A-law byte for one sample. 0 encodes as 0xD5.
    public static func aLaw(encoding sample: Int16) -> UInt8 {
        // A-law works on 13 bits; even-bit inversion (0x55) is part of the code (G.711 §3).
        var value = Int32(sample) >> 3
        let mask: Int32
        if value >= 0 {
            mask = 0xD5
        } else {
            mask = 0x55
            value = -value - 1
        }
        // Segment s holds magnitudes up to (0x20 << s) - 1 (the reference's seg_aend table).
        var segment: Int32 = 0
        var segmentEnd: Int32 = 0x1F
        while value > segmentEnd, segment < 8 {
            segment += 1
            segmentEnd = segmentEnd << 1 | 1
        }
        guard segment < 8 else { return UInt8(truncatingIfNeeded: 0x7F ^ mask) }
        let step = segment < 2 ? 1 : segment
        let code = segment << 4 | (value >> step) & 0x0F
        return UInt8(truncatingIfNeeded: code ^ mask)
    }

    /// The linear sample of one A-law byte.
    public static func aLaw(decoding byte: UInt8) -> Int16 { aLawTable[Int(byte)] }

    public static func muLaw(encoding samples: some Collection<Int16>) -> [UInt8] { samples.map { muLaw(encoding: $0) } }
    public static func muLaw(decoding bytes: some Collection<UInt8>) -> [Int16] { bytes.map { muLaw(decoding: $0) } }
    public static func aLaw(encoding samples: some Collection<Int16>) -> [UInt8] { samples.map { aLaw(encoding: $0) } }
    public static func aLaw(decoding bytes: some Collection<UInt8>) -> [Int16] { bytes.map { aLaw(decoding: $0) } }

    private static let muLawTable: [Int16] = (0...255).map { (code: Int) -> Int16 in
        let inverted = Int32(~UInt8(code))
        var magnitude = ((inverted & 0x0F) << 3) + muLawBias
        magnitude <<= (inverted & 0x70) >> 4
        return Int16(inverted & 0x80 != 0 ? muLawBias - magnitude : magnitude - muLawBias)
    }

    private static let aLawTable: [Int16] = (0...255).map { (code: Int) -> Int16 in
        let value = Int32(code) ^ 0x55
        var magnitude = (value & 0x0F) << 4
        let segment = (value & 0x70) >> 4
        switch segment {
        case 0: magnitude += 8
        case 1: magnitude += 0x108
        default: magnitude = (magnitude + 0x108) << (segment - 1)
        }
        return Int16(value & 0x80 != 0 ? magnitude : -magnitude)
    }
}
