/// Resource bounds applied before and while parsing, so hostile input cannot exhaust memory or time.
public struct SDPLimits: Equatable, Sendable {
    public var maxInputBytes: Int
    public var maxLineBytes: Int
    public var maxMediaSections: Int

    public init(maxInputBytes: Int = 64 * 1024, maxLineBytes: Int = 8 * 1024, maxMediaSections: Int = 64) {
        self.maxInputBytes = maxInputBytes
        self.maxLineBytes = maxLineBytes
        self.maxMediaSections = maxMediaSections
    }

    public static let standard = SDPLimits()
}
