/// Durations in config files: `"500ms"`, `"30s"`, `"2m"`, `"1h"`, or a whole number of seconds.
enum DurationSyntax {
    enum Failure: Error, Equatable {
        case negative
        case malformed
    }

    static func parse(_ text: String) -> Result<Duration, Failure> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") { return .failure(.negative) }
        let units: [(suffix: String, milliseconds: Int64)] = [("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000)]
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            let number = trimmed.dropLast(unit.suffix.count)
            // "5ms" also ends in "s": only accept when the rest is a plain number.
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  number.filter({ $0 == "." }).count <= 1, let value = Double(number), value.isFinite,
                  value * Double(unit.milliseconds) < 1e12
            else { continue }
            return .success(.milliseconds(Int64((value * Double(unit.milliseconds)).rounded())))
        }
        return .failure(.malformed)
    }

    /// How a duration is written back in messages: the largest unit that keeps it whole.
    static func format(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 3_600_000 == 0, milliseconds != 0 { return "\(milliseconds / 3_600_000)h" }
        if milliseconds % 60_000 == 0, milliseconds != 0 { return "\(milliseconds / 60_000)m" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
        return "\(milliseconds)ms"
    }
}

import Foundation
