/// How this UA answers requests it does not take into a call (RFC 3261 §8.2, §11, §14.2, RFC 3311): the
/// methods it implements, what it accepts, and the refusals for busy, glare, extensions and unusable offers.
/// The SDP itself is opaque here; the caller says whether an offer was usable.
public struct UASPolicy: Hashable, Sendable {
    public var allowedMethods: [SIPMethod]
    /// Body types this UA understands (Accept of OPTIONS; an INVITE's Accept must include one, §8.2.3).
    public var acceptedContentTypes: [String]
    /// Option tags this UA supports (Require of a request must be a subset, §8.2.2.3).
    public var supportedExtensions: [String]

    public init(
        allowedMethods: [SIPMethod] = [.invite, .ack, .bye, .cancel, .options],
        acceptedContentTypes: [String] = ["application/sdp"], supportedExtensions: [String] = []
    ) {
        self.allowedMethods = allowedMethods
        self.acceptedContentTypes = acceptedContentTypes
        self.supportedExtensions = supportedExtensions
    }

    /// What the UA is doing when the request arrives.
    public struct Situation: Hashable, Sendable {
        /// Another call is ringing or up.
        public var busy: Bool
        /// Our own re-INVITE on this dialog is still pending (§14.2: glare).
        public var pendingReinvite: Bool
        /// The INVITE's offer could not be used (no common codec, unreadable SDP).
        public var offerUnusable: Bool

        public init(busy: Bool = false, pendingReinvite: Bool = false, offerUnusable: Bool = false) {
            self.busy = busy
            self.pendingReinvite = pendingReinvite
            self.offerUnusable = offerUnusable
        }
    }

    /// The response to send, or nil when the request is for the TU (an INVITE to take, a BYE, an ACK).
    /// The order follows §8.2: method, extensions, content, then the UA's state.
    public func response(to request: SIPMessage, situation: Situation = Situation(), toTag: String) -> SIPMessage? {
        guard let method = request.method, method != .ack else { return nil }
        guard allowedMethods.contains(method) else {
            // §8.2.1: 405 for a method SIP defines that this UA does not do, 501 for one it does not know;
            // both list what is allowed.
            guard Self.knownMethods.contains(method) else {
                return refuse(request, 501, "Not Implemented", toTag, [allowHeader])
            }
            return refuse(request, 405, "Method Not Allowed", toTag, [allowHeader])
        }
        let unsupported = request.listValues(SIPHeaderName.require).filter { !supportedExtensions.contains($0) }
        if !unsupported.isEmpty, method != .cancel {
            return refuse(request, 420, "Bad Extension", toTag,
                [SIPHeader(SIPHeaderName.unsupported, unsupported.joined(separator: ", "))])
        }
        if method == .options {
            return ResponseBuilder.response(to: request, status: 200, reason: "OK", toTag: toTag,
                extraHeaders: [allowHeader, acceptHeader, SIPHeader(SIPHeaderName.supported, supportedExtensions.joined(separator: ", "))])
        }
        guard method == .invite else { return nil }
        let accepted = request.listValues(SIPHeaderName.accept).map { $0.prefix { $0 != ";" }.trimmingLWS.lowercased() }
        if !accepted.isEmpty, !accepted.contains(where: { acceptedContentTypes.contains($0) || $0 == "*/*" }) {
            return refuse(request, 406, "Not Acceptable", toTag, [acceptHeader])
        }
        if situation.pendingReinvite {
            return refuse(request, 491, "Request Pending", toTag, [])
        }
        if situation.busy {
            return refuse(request, 486, "Busy Here", toTag, [])
        }
        if situation.offerUnusable {
            return refuse(request, 488, "Not Acceptable Here", toTag, [acceptHeader])
        }
        return nil
    }

    /// The methods of RFC 3261 and its registered extensions (RFC 3262, 3265, 3311, 3428, 3515, 6086).
    static let knownMethods: Set<SIPMethod> = [
        .invite, .ack, .bye, .cancel, .options, .register, .refer, .info, .update, .prack, .subscribe, .notify,
        .message, SIPMethod("PUBLISH"),
    ]

    private var allowHeader: SIPHeader {
        SIPHeader(SIPHeaderName.allow, allowedMethods.map(\.rawValue).joined(separator: ", "))
    }

    private var acceptHeader: SIPHeader {
        SIPHeader(SIPHeaderName.accept, acceptedContentTypes.joined(separator: ", "))
    }

    private func refuse(_ request: SIPMessage, _ status: Int, _ reason: String, _ toTag: String, _ headers: [SIPHeader])
        -> SIPMessage
    {
        ResponseBuilder.response(to: request, status: status, reason: reason, toTag: toTag, extraHeaders: headers)
    }
}
