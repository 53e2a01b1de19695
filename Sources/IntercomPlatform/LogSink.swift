/// Where finished log lines go. `write` receives one line without its newline and must be thread-safe.
public struct LogSink: Sendable {
    public let write: @Sendable (String) -> Void

    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// File descriptor 2, one `write`/`send` per line (see `StandardErrorWriter`).
    public static let standardError: LogSink = {
        let writer = StandardErrorWriter()
        return LogSink { writer.writeLine($0) }
    }()
}
