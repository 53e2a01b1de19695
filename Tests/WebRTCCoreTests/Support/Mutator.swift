import IntercomTestSupport
/// Deterministic byte-level mutations in the style of libFuzzer's default mutators: bit flips,
/// interesting values, truncation, insertion, deletion and chunk duplication.
struct Mutator {
    var generator: SplitMix64

    init(seed: UInt64) {
        generator = SplitMix64(seed: seed)
    }

    static let interestingBytes: [UInt8] = [0x00, 0x01, 0x0A, 0x0D, 0x20, 0x3A, 0x7F, 0x80, 0xBF, 0xC0, 0xFF]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }

    /// One to four mutations of `input`.
    mutating func mutate(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        for _ in 0..<int(1...4) { bytes = mutateOnce(bytes) }
        return bytes
    }

    private mutating func mutateOnce(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return [UInt8.random(in: 0...255, using: &generator)] }
        let position = int(0...(bytes.count - 1))
        switch int(0...6) {
        case 0:
            bytes[position] ^= 1 << UInt8(int(0...7))
        case 1:
            bytes[position] = Self.interestingBytes[int(0...(Self.interestingBytes.count - 1))]
        case 2:
            bytes[position] = UInt8(truncatingIfNeeded: int(0...255))
        case 3:
            bytes.removeSubrange(position...)
        case 4:
            bytes.insert(UInt8(truncatingIfNeeded: int(0...255)), at: position)
        case 5:
            let end = min(bytes.count, position + int(1...16))
            bytes.removeSubrange(position..<end)
        default:
            let end = min(bytes.count, position + int(1...64))
            bytes.insert(contentsOf: bytes[position..<end], at: int(0...bytes.count))
        }
        return bytes
    }

    /// Line-level SDP mutations: duplicate, drop or swap lines, or replace a number with an extreme one.
    mutating func mutateLines(_ lines: [String]) -> [String] {
        var lines = lines
        guard !lines.isEmpty else { return lines }
        let index = int(0...(lines.count - 1))
        switch int(0...3) {
        case 0:
            lines.insert(lines[index], at: int(0...lines.count))
        case 1:
            lines.remove(at: index)
        case 2:
            lines.swapAt(index, int(0...(lines.count - 1)))
        default:
            let extremes = ["0", "15", "65536", "128", "4294967296", "99999999999999999999", "-1", ""]
            var digitsReplaced = false
            lines[index] = String(lines[index].split(separator: " ", omittingEmptySubsequences: false).map { field in
                guard !digitsReplaced, field.contains(where: \.isNumber) else { return String(field) }
                digitsReplaced = true
                return String(field).replacing(/[0-9]+/, with: extremes[int(0...(extremes.count - 1))])
            }.joined(separator: " "))
        }
        return lines
    }
}
