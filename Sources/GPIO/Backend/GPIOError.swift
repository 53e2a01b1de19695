import Glibc
import IntercomPlatform

/// A GPIO operation that failed, with the line it concerned and the failing libgpiod call and errno.
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// No chip has a line of that name, or the chip/offset does not exist.
        case lineNotFound
        /// Another program or driver holds the line (EBUSY).
        case busy
        /// Any other failure of a libgpiod call.
        case failed
    }

    public var kind: Kind
    public var line: String
    public var cause: SystemCallError

    public init(kind: Kind, line: String, cause: SystemCallError) {
        self.kind = kind
        self.line = line
        self.cause = cause
    }

    /// Classifies errno the way an installer needs it: missing wiring config vs. a line in use vs. anything else.
    static func from(call: String, line: String, errno code: Int32) -> GPIOError {
        let kind: Kind = switch code {
        case ENOENT, ENODEV, EINVAL: .lineNotFound
        case EBUSY: .busy
        default: .failed
        }
        return GPIOError(kind: kind, line: line, cause: SystemCallError(call: call, errno: code, path: line))
    }

    public var description: String {
        switch kind {
        case .lineNotFound: return "GPIO \(line) not found (\(cause)); check `intercomd probe` for the chips and line names"
        case .busy: return "GPIO \(line) is in use by another program or driver (\(cause)); see `gpioinfo`"
        case .failed: return "GPIO \(line): \(cause)"
        }
    }
}
