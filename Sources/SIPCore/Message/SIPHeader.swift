/// One header line after unfolding: the name in canonical spelling, the value without surrounding LWS.
public struct SIPHeader: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = SIPHeaderName.normalized(name)
        self.value = value
    }
}
