/// A request method (RFC 3261 §7.1): any token; the known ones are constants. Case-sensitive (§7.1).
public struct SIPMethod: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static let invite = SIPMethod("INVITE")
    public static let ack = SIPMethod("ACK")
    public static let bye = SIPMethod("BYE")
    public static let cancel = SIPMethod("CANCEL")
    public static let options = SIPMethod("OPTIONS")
    public static let register = SIPMethod("REGISTER")
    public static let refer = SIPMethod("REFER")
    public static let info = SIPMethod("INFO")
    public static let update = SIPMethod("UPDATE")
    public static let prack = SIPMethod("PRACK")
    public static let subscribe = SIPMethod("SUBSCRIBE")
    public static let notify = SIPMethod("NOTIFY")
    public static let message = SIPMethod("MESSAGE")
}
