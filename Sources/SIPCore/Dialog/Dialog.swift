/// The state of one dialog (RFC 3261 §12.1): identity, the parties, the remote target, the route set and the
/// two CSeq spaces. Created by a UAC from a 2xx (or tagged 1xx) to its INVITE, or by a UAS when it answers.
public struct Dialog: Hashable, Sendable {
    public let id: DialogID
    /// Our From (UAC) or To (UAS), without tag.
    public var localParty: NameAddress
    /// The peer's address, without tag.
    public var remoteParty: NameAddress
    /// Where in-dialog requests go: the peer's Contact (§12.1.1, §12.1.2).
    public var remoteTarget: SIPURI
    /// Route headers of in-dialog requests, first hop first.
    public var routeSet: [NameAddress]
    /// The CSeq of our last request in this dialog.
    public internal(set) var localSequence: UInt32
    /// The CSeq of the peer's last request; nil until it sends one (§12.1.2: a UAC starts with none).
    public internal(set) var remoteSequence: UInt32?
    /// `sips:` Request-URI and TLS on every hop (§12.1.1).
    public var secure: Bool

    /// UAC side (§12.1.2): from our INVITE and the 2xx or tagged 1xx it got. The route set is the response's
    /// Record-Route reversed.
    public init(uacRequest request: SIPMessage, response: SIPMessage) throws(SIPError) {
        guard let remoteTag = try response.to().tag else { throw .missingHeader("To tag") }
        guard let localTag = try request.from().tag else { throw .missingHeader("From tag") }
        guard let target = try response.contacts().first else { throw .missingHeader(SIPHeaderName.contact) }
        id = DialogID(callID: try request.callID(), localTag: localTag, remoteTag: remoteTag)
        localParty = try request.from().withoutTag
        remoteParty = try response.to().withoutTag
        remoteTarget = target.uri
        routeSet = try Array(response.routeSet(SIPHeaderName.recordRoute).reversed())
        localSequence = try request.cseq().number
        remoteSequence = nil
        secure = request.requestURI?.secure ?? false
    }

    /// UAS side (§12.1.1): from the INVITE we answer with a 2xx carrying `localTag`. The route set is the
    /// request's Record-Route in order.
    public init(uasRequest request: SIPMessage, localTag: String) throws(SIPError) {
        guard let remoteTag = try request.from().tag else { throw .missingHeader("From tag") }
        guard let target = try request.contacts().first else { throw .missingHeader(SIPHeaderName.contact) }
        id = DialogID(callID: try request.callID(), localTag: localTag, remoteTag: remoteTag)
        localParty = try request.to().withoutTag
        remoteParty = try request.from().withoutTag
        remoteTarget = target.uri
        routeSet = try request.routeSet(SIPHeaderName.recordRoute)
        localSequence = 0
        remoteSequence = try request.cseq().number
        secure = request.requestURI?.secure ?? false
    }
}

extension NameAddress {
    var withoutTag: NameAddress {
        var copy = self
        copy.tag = nil
        return copy
    }
}
