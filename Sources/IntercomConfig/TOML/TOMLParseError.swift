/// A syntax or redefinition error in a TOML document, with where it happened.
public struct TOMLParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var location: SourceLocation

    public init(message: String, location: SourceLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}
