/// A dialog's identity (RFC 3261 §12): Call-ID plus the local and remote tags, seen from this UA.
public struct DialogID: Hashable, Sendable {
    public var callID: String
    public var localTag: String
    public var remoteTag: String

    public init(callID: String, localTag: String, remoteTag: String) {
        self.callID = callID
        self.localTag = localTag
        self.remoteTag = remoteTag
    }

    /// The dialog a received request belongs to: its To tag is ours, its From tag the peer's (§12.2.2).
    public init(receivedRequest request: SIPMessage) throws(SIPError) {
        guard let localTag = try request.to().tag else { throw .missingHeader("To tag") }
        guard let remoteTag = try request.from().tag else { throw .missingHeader("From tag") }
        self.init(callID: try request.callID(), localTag: localTag, remoteTag: remoteTag)
    }
}
