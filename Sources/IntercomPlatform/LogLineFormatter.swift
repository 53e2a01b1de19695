import Foundation
import Logging

/// Turns one log event into exactly one line of text (no trailing newline). Pure: time comes in as a value.
public struct LogLineFormatter: Sendable {
    public var style: LogLineStyle
    /// Longer messages are cut: one runaway dump must not blow the log budget (reliability matrix #33).
    public var maximumMessageLength: Int

    public init(style: LogLineStyle, maximumMessageLength: Int = 4096) {
        self.style = style
        self.maximumMessageLength = maximumMessageLength
    }

    public func format(
        level: Logger.Level,
        label: String,
        message: String,
        metadata: Logger.Metadata = [:],
        time: Date
    ) -> String {
        var line: String
        switch style {
        case .journal:
            line = "<\(level.syslogPriority)>\(label): "
        case .console:
            line = "\(UTCTimestamp.iso8601(time)) \(level) \(label): "
        }
        line += Self.escaped(truncated(message))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " " + Self.escaped(key) + "=" + Self.quotedIfNeeded("\(value)")
        }
        return line
    }

    func truncated(_ message: String) -> String {
        guard message.count > maximumMessageLength else { return message }
        return message.prefix(maximumMessageLength) + "…[truncated]"
    }

    /// A newline inside a message would start a new journal entry with whatever `<N>` it carries, so control
    /// characters are written as escapes; this also keeps terminal escape sequences out of the log.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\x" + hex(scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// logfmt-style: values with spaces, quotes, `=` or nothing at all are double-quoted.
    static func quotedIfNeeded(_ value: String) -> String {
        let needsQuotes = value.isEmpty || value.contains { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\\" }
        guard needsQuotes else { return escaped(value) }
        let inner = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"" + escaped(inner) + "\""
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return digits.count < 2 ? "0" + digits : digits
    }
}
