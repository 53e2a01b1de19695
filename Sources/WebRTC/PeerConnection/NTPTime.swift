import Foundation

/// 64-bit NTP timestamps (RFC 5905 §6: seconds since 1900 in the high word, binary fraction in the low
/// word), as RTCP sender reports carry them (RFC 3550 §4), and the "middle 32 bits" of RR LSR fields.
public enum NTPTime {
    /// Seconds between 1900-01-01 and 1970-01-01.
    public static let unixEpochOffset: UInt64 = 2_208_988_800

    public static func timestamp(unixSeconds: Double) -> UInt64 {
        let whole = unixSeconds.rounded(.down)
        let fraction = UInt64(((unixSeconds - whole) * 4_294_967_296).rounded(.down)) & 0xFFFF_FFFF
        return (UInt64(whole) + unixEpochOffset) << 32 | fraction
    }

    public static func now() -> UInt64 {
        timestamp(unixSeconds: Date().timeIntervalSince1970)
    }

    /// The middle 32 bits (RFC 3550 §6.4.1 LSR).
    public static func middle32(_ timestamp: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: timestamp >> 16)
    }

    /// A duration in units of 1/65536 s (RFC 3550 §6.4.1 DLSR), saturating.
    public static func units65536(_ duration: Duration) -> UInt32 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let value = Double(seconds) * 65536 + Double(attoseconds) / 1e18 * 65536
        return value >= Double(UInt32.max) ? .max : UInt32(value)
    }
}

/// The `abs-send-time` header extension value (http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time):
/// send time in seconds as 6.18 fixed point, 24 bits, wrapping every 64 s. Chrome's REMB estimator uses it.
public enum AbsoluteSendTime {
    public static func value(monotonic now: Duration) -> [UInt8] {
        let (seconds, attoseconds) = now.components
        let fixed = (UInt64(max(0, seconds)) << 18) + UInt64(Double(attoseconds) / 1e18 * 262_144)
        let value = UInt32(truncatingIfNeeded: fixed) & 0xFF_FFFF
        return [UInt8(value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
