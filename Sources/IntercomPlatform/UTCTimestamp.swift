import Foundation
import Glibc

/// UTC timestamps as text, formatted with `gmtime_r(3)` (no locale, no formatter objects, thread-safe).
enum UTCTimestamp {
    /// `20261121T101500Z`: ISO 8601 basic format, safe in file names and sortable as text.
    static func compact(secondsSince1970 seconds: Int) -> String {
        guard let parts = brokenDown(seconds) else { return String(seconds) }
        return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "Z"
    }

    /// `2026-11-21T10:15:00.123Z`: ISO 8601 extended format with milliseconds.
    static func iso8601(_ date: Date) -> String {
        let totalMilliseconds = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, milliseconds) = totalMilliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, millis) = milliseconds < 0 ? (seconds - 1, milliseconds + 1000) : (seconds, milliseconds)
        guard let parts = brokenDown(wholeSeconds) else { return String(wholeSeconds) }
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "."
            + pad(Int32(millis), 3) + "Z"
    }

    private static func brokenDown(_ seconds: Int) -> tm? {
        var time = time_t(seconds)
        var parts = tm()
        return gmtime_r(&time, &parts) == nil ? nil : parts
    }

    private static func pad(_ value: Int32, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
