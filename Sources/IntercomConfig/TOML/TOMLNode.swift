/// A value together with where it was written, so config validation can report `file:line`.
public struct TOMLNode: Sendable, Equatable {
    public var value: TOMLValue
    /// Where the value starts: the first character of a scalar, `[` of an array or header, `{` of an
    /// inline table, or the key that implicitly created a table.
    public var location: SourceLocation
    /// Where the value's key was written (the last part of a dotted key); nil for array elements.
    public var keyLocation: SourceLocation?

    public init(value: TOMLValue, location: SourceLocation, keyLocation: SourceLocation? = nil) {
        self.value = value
        self.location = location
        self.keyLocation = keyLocation
    }
}
