/// The text of sd_notify(3) datagrams: newline-separated `KEY=value` assignments.
public enum SystemdNotifyMessage {
    public static func ready(status: String? = nil) -> String {
        join(["READY=1"], status: status)
    }

    public static func status(_ text: String) -> String {
        join([], status: text)
    }

    public static let watchdog = "WATCHDOG=1"

    public static func stopping(status: String? = nil) -> String {
        join(["STOPPING=1"], status: status)
    }

    /// A status is free text from our code and error messages; a newline in it would start a new assignment
    /// (`STATUS=x\nREADY=1`), so control characters become spaces.
    public static func sanitized(_ status: String) -> String {
        String(String.UnicodeScalarView(status.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }

    static func join(_ assignments: [String], status: String?) -> String {
        (assignments + (status.map { ["STATUS=" + sanitized($0)] } ?? [])).joined(separator: "\n")
    }
}
