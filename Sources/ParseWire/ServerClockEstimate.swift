import Foundation

/// The server's clock as the device sees it: every response's `Date` header (RFC 9110 §6.6.1) against the
/// device's clock when the request left and when the answer came back. Call rows carry the server's
/// times (`expiresAt`), and a board without a real-time clock, or a backend without NTP, can be minutes
/// off: judged on the device's own clock, a device 60 s ahead would see every row as already expired.
/// Sans-IO: samples in, offset out.
public struct ServerClockEstimate: Sendable, Equatable {
    /// The recent samples kept; the offset is their median, so one slow response cannot move it.
    public static let sampleCount = 5
    private var samples: [Double] = []

    public init() {}

    /// Seconds the server's clock is ahead of the device's (negative: behind); nil before any sample.
    public var offsetSeconds: Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// One exchange: the response's `Date` header, and the device's clock when the request was sent and
    /// when the response arrived. An unreadable header is ignored.
    public mutating func record(dateHeader: String, sentAt: Date, receivedAt: Date) {
        guard let serverDate = Self.parseHTTPDate(dateHeader), receivedAt >= sentAt else { return }
        // The header has whole seconds and was written somewhere in the round trip: compare the middle of
        // its second with the middle of the exchange.
        let middle = sentAt.timeIntervalSince1970 + receivedAt.timeIntervalSince(sentAt) / 2
        samples.append(serverDate.timeIntervalSince1970 + 0.5 - middle)
        if samples.count > Self.sampleCount { samples.removeFirst(samples.count - Self.sampleCount) }
    }

    /// What the server's clock reads when the device's reads `deviceNow` (unchanged before any sample).
    public func serverTime(at deviceNow: Date) -> Date {
        deviceNow.addingTimeInterval(offsetSeconds ?? 0)
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`, RFC 9110 §5.6.7), the only form servers must send.
    public static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[0].count == 4, parts[0].hasSuffix(","), parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day),
              let month = months.firstIndex(of: String(parts[2])),
              let year = Int(parts[3]), (1970...9999).contains(year)
        else { return nil }
        let clock = parts[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second)
        guard let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day  // 31 Feb is not a date
        else { return nil }
        return date
    }
}
