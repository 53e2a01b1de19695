/// Finds the first byte that makes a buffer unacceptable as TOML text: malformed UTF-8 (overlong forms,
/// surrogates and code points above U+10FFFF included, per RFC 3629 section 4) or a NUL byte.
enum TOMLUTF8Validation {
    enum Problem: Equatable {
        case invalidUTF8(offset: Int, byte: UInt8)
        case nul(offset: Int)

        var offset: Int {
            switch self {
            case .invalidUTF8(let offset, _), .nul(let offset): offset
            }
        }

        var message: String {
            switch self {
            case .invalidUTF8(_, let byte): "invalid UTF-8 (byte 0x\(TOMLByte.hex(UInt32(byte), digits: 2)))"
            case .nul: "NUL byte is not allowed"
            }
        }
    }

    static func firstProblem(in bytes: [UInt8]) -> Problem? {
        var index = 0
        while index < bytes.count {
            let lead = bytes[index]
            if lead == 0 { return .nul(offset: index) }
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let (length, secondRange) = sequenceShape(lead: lead) else {
                return .invalidUTF8(offset: index, byte: lead)
            }
            for position in 1..<length {
                let byteIndex = index + position
                guard byteIndex < bytes.count else { return .invalidUTF8(offset: index, byte: lead) }
                let range: ClosedRange<UInt8> = position == 1 ? secondRange : 0x80...0xBF
                guard range.contains(bytes[byteIndex]) else { return .invalidUTF8(offset: index, byte: lead) }
            }
            index += length
        }
        return nil
    }

    /// Sequence length and allowed second byte for a lead byte (RFC 3629 section 4, `UTF8-2` … `UTF8-4`).
    private static func sequenceShape(lead: UInt8) -> (Int, ClosedRange<UInt8>)? {
        switch lead {
        case 0xC2...0xDF: (2, 0x80...0xBF)
        case 0xE0: (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80...0xBF)
        case 0xED: (3, 0x80...0x9F)
        case 0xF0: (4, 0x90...0xBF)
        case 0xF1...0xF3: (4, 0x80...0xBF)
        case 0xF4: (4, 0x80...0x8F)
        default: nil
        }
    }
}
