/// The dialogs of a UA and the answer to requests that belong to none (RFC 3261 §12.2.2: 481).
public struct DialogTable: Sendable {
    public private(set) var dialogs: [DialogID: Dialog] = [:]

    public init() {}

    public mutating func insert(_ dialog: Dialog) { dialogs[dialog.id] = dialog }

    public mutating func remove(_ id: DialogID) { dialogs[id] = nil }

    public subscript(id: DialogID) -> Dialog? {
        get { dialogs[id] }
        set { dialogs[id] = newValue }
    }

    /// Where an in-dialog request (To tag present) goes.
    public enum Routing: Hashable, Sendable {
        /// No To tag: a new dialog or an out-of-dialog request for the TU.
        case outOfDialog
        case dialog(DialogID)
        /// A To tag that matches no dialog: answer this (481 Call/Transaction Does Not Exist); an ACK is
        /// dropped silently (nil), as ACKs are never answered.
        case reject(SIPMessage?)
    }

    public func route(_ request: SIPMessage) throws(SIPError) -> Routing {
        guard try request.to().tag != nil else { return .outOfDialog }
        let id = try DialogID(receivedRequest: request)
        if dialogs[id] != nil { return .dialog(id) }
        if request.method == .ack { return .reject(nil) }
        return .reject(ResponseBuilder.response(to: request, status: 481, reason: "Call/Transaction Does Not Exist"))
    }
}
