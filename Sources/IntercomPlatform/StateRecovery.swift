/// What `StateStore` did when it found a damaged or missing state file: a damaged file was moved aside (kept
/// for diagnosis), and the record came back from its backup or, without one, was made afresh. The caller
/// logs `description` once at warning level.
public struct StateRecovery: Sendable, Equatable, CustomStringConvertible {
    /// Why the file was unusable.
    public enum Reason: Error, Sendable, Equatable, CustomStringConvertible {
        /// Gone while its backup was still there.
        case missing
        /// Zero bytes or only whitespace (typical after a power cut before the first fsync).
        case empty
        /// Larger than the read limit.
        case tooLarge(limit: Int)
        /// Not parseable as JSON: truncated, garbage bytes, zero-filled, invalid UTF-8.
        case malformedJSON(String)
        /// Valid JSON of the wrong shape: missing keys, wrong types, nulls.
        case wrongShape(String)
        /// The right shape with unusable values, e.g. an empty id.
        case invalidValue(String)

        public var description: String {
            switch self {
            case .missing: "missing"
            case .empty: "empty"
            case .tooLarge(let limit): "larger than \(limit) bytes"
            case .malformedJSON(let detail): "not valid JSON (\(detail))"
            case .wrongShape(let detail): "not an identity record (\(detail))"
            case .invalidValue(let detail): "invalid (\(detail))"
            }
        }
    }

    /// The damaged file's original path.
    public let path: String
    public let reason: Reason
    /// Where the damaged bytes were moved, e.g. `identity.json.corrupt-20261121T101500Z`; nil when missing.
    public let preservedCopyPath: String?
    /// The backup the record was restored from; nil when a fresh one was made.
    public let restoredFrom: String?

    public init(path: String, reason: Reason, preservedCopyPath: String?, restoredFrom: String? = nil) {
        self.path = path
        self.reason = reason
        self.preservedCopyPath = preservedCopyPath
        self.restoredFrom = restoredFrom
    }

    public var description: String {
        let moved = preservedCopyPath.map { "; moved it to \($0)" } ?? ""
        let outcome = restoredFrom.map { "restored the identity from \($0)" } ?? "started with a fresh identity"
        return "\(path) was \(reason)\(moved) and \(outcome)"
    }
}
