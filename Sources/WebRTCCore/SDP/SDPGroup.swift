/// `a=group:<semantics> <mid>...` (RFC 5888 §5); `BUNDLE` groups follow RFC 9143.
public struct SDPGroup: Hashable, Sendable {
    public var semantics: String
    public var mids: [String]

    public init(semantics: String, mids: [String]) {
        self.semantics = semantics
        self.mids = mids
    }

    public static func bundle(_ mids: [String]) -> SDPGroup {
        SDPGroup(semantics: "BUNDLE", mids: mids)
    }

    var serialized: String {
        ([semantics] + mids).joined(separator: " ")
    }
}
