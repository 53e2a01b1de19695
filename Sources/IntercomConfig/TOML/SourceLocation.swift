/// A position in a config file, printed as `file:line:column` by `intercomd check`.
///
/// Lines and columns are 1-based. Columns count Unicode scalars, not bytes, so a value after `"é"` on
/// the same line is reported where an editor shows it.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    /// `file:line`, the short form used in "first defined at …" notes.
    public var fileAndLine: String { "\(file):\(line)" }
}
