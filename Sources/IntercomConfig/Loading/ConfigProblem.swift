/// One thing wrong with a configuration, with where it was written when the parser knows it.
public struct ConfigProblem: Sendable, Equatable, CustomStringConvertible {
    /// Dotted key path, e.g. `video.fps`; empty for problems of a whole file.
    public var keyPath: String
    public var message: String
    public var location: SourceLocation?

    public init(keyPath: String, message: String, location: SourceLocation? = nil) {
        self.keyPath = keyPath
        self.message = message
        self.location = location
    }

    /// `intercom.toml:12:7: video.fps: must be between 1 and 60, got 0`
    public var description: String {
        var text = ""
        if let location { text += "\(location.file):\(location.line):\(location.column): " }
        if !keyPath.isEmpty { text += "\(keyPath): " }
        return text + message
    }
}

extension Array where Element == ConfigProblem {
    /// File order, then line order, so the output reads like the files.
    func sortedForReading() -> [ConfigProblem] {
        enumerated().sorted { lhs, rhs in
            switch (lhs.element.location, rhs.element.location) {
            case let (l?, r?) where l.file != r.file: return l.file < r.file
            case let (l?, r?) where l.line != r.line: return l.line < r.line
            case let (l?, r?) where l.column != r.column: return l.column < r.column
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}

/// Collects problems while a whole configuration is read, so that `check` can report all of them at once.
final class ProblemList {
    private(set) var problems: [ConfigProblem] = []
    func add(_ problem: ConfigProblem) { problems.append(problem) }
}
