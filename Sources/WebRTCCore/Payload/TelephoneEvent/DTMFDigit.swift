/// A DTMF key and its RFC 4733 §3.2 event code: 0–9 → 0–9, `*` → 10, `#` → 11, A–D → 12–15.
public struct DTMFDigit: Hashable, Sendable, CustomStringConvertible {
    /// 0…15.
    public let event: UInt8

    public static let keys: [Character] = Array("0123456789*#ABCD")

    public init?(event: UInt8) {
        guard event < 16 else { return nil }
        self.event = event
    }

    public init?(_ key: Character) {
        guard let index = Self.keys.firstIndex(of: Character(key.uppercased())) else { return nil }
        event = UInt8(index)
    }

    public var key: Character { Self.keys[Int(event)] }
    public var description: String { String(key) }
}
