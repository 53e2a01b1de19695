/// What identifies a transaction (RFC 3261 §17.1.3, §17.2.3): the top Via's branch (with the RFC 3261 magic
/// cookie), its sent-by for servers, and the method — with ACK matching the INVITE it acknowledges. RFC 2543
/// requests without the cookie are refused with `.missingBranch` rather than matched the old way (§17.2.3).
public struct TransactionKey: Hashable, Sendable {
    public var branch: String
    /// Empty for client keys: a client matches responses on branch and method alone (§17.1.3).
    public var sentBy: String
    public var method: SIPMethod

    /// The key of the server transaction a received request belongs to.
    public init(serverRequest request: SIPMessage) throws(SIPError) {
        guard let method = request.method else { throw .notARequest }
        let via = try request.topVia()
        branch = try Self.branch(of: via)
        sentBy = via.sentBy.lowercased()
        self.method = method == .ack ? .invite : method
    }

    /// The key of the server transaction of the request a received CANCEL cancels (§9.2): the same branch and
    /// sent-by, method INVITE. The CANCEL itself has its own transaction (`init(serverRequest:)`).
    public init(cancelledBy cancel: SIPMessage) throws(SIPError) {
        guard cancel.method == .cancel else { throw .notARequest }
        self = try TransactionKey(serverRequest: cancel)
        method = .invite
    }

    /// The key of the client transaction a received response belongs to.
    public init(clientResponse response: SIPMessage) throws(SIPError) {
        guard response.statusCode != nil else { throw .notAResponse }
        branch = try Self.branch(of: response.topVia())
        sentBy = ""
        method = try response.cseq().method
    }

    /// The key a client transaction for `request` (as sent) will see its responses under.
    public init(clientRequest request: SIPMessage) throws(SIPError) {
        guard let method = request.method else { throw .notARequest }
        branch = try Self.branch(of: request.topVia())
        sentBy = ""
        self.method = method
    }

    private static func branch(of via: Via) throws(SIPError) -> String {
        guard let branch = via.branch, branch.hasPrefix(Via.magicCookie), branch.count > Via.magicCookie.count else {
            throw .missingBranch
        }
        return branch
    }
}
