/// A `<type>=<value>` line this module does not model (RFC 8866 §5), such as `c=`, `b=` or `i=`.
/// Kept verbatim and written back in the order RFC 8866 §5 prescribes for its type.
public struct SDPLine: Hashable, Sendable {
    /// The one-letter type, e.g. `"c"`.
    public var type: String
    public var value: String

    public init(type: String, value: String) {
        self.type = type
        self.value = value
    }
}

/// An `a=<name>[:<value>]` attribute this module does not model (RFC 8866 §5.13), kept verbatim.
public struct SDPAttribute: Hashable, Sendable {
    public var name: String
    /// `nil` for property attributes such as `a=extmap-allow-mixed`.
    public var value: String?

    public init(name: String, value: String? = nil) {
        self.name = name
        self.value = value
    }
}
