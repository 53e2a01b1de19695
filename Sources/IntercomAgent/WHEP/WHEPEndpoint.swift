import Foundation

/// The WHEP resource logic (draft-ietf-wish-whep §4), free of HTTP plumbing: what a POST to `/whep` and a
/// DELETE of `/whep/<id>` answer. The token is checked first, so a client without it learns nothing else.
public struct WHEPEndpoint: Sendable {
    let token: WHEPToken
    public let viewers: WHEPViewers

    public init(token: WHEPToken, viewers: WHEPViewers) {
        self.token = token
        self.viewers = viewers
    }

    /// `POST /whep`: 201 with `Location` and the answer; 401 without the token, 415 for a body that is not
    /// `application/sdp`, 400 for an offer we cannot answer, 503 (with `Retry-After`) when every slot is
    /// taken, 500 when our own media fails.
    /// `accessToken`: the URL's `access_token` parameter, for players that cannot send the header.
    public func post(authorization: String?, accessToken: String? = nil, contentType: String?, body: [UInt8]) async -> WHEPReply {
        guard token.admits(authorization, accessToken: accessToken) else { return .unauthorized }
        guard Self.isSDP(contentType) else {
            return .refusal(415, "the offer must be sent as Content-Type: application/sdp",
                            headers: ["Accept-Post": "application/sdp"])
        }
        guard let offer = String(validating: body, as: UTF8.self), offer.hasPrefix("v=") else {
            return .refusal(400, "the body is not an SDP offer (it must start with v=0)")
        }
        do throws(WHEPError) {
            let (id, answer) = try await viewers.open(offer: offer)
            return .created(id: id, answer: answer)
        } catch {
            switch error {
            case .full: return .refusal(503, error.description, headers: ["Retry-After": "10"])
            case .unusableOffer: return .refusal(400, error.description)
            case .mediaFailed, .tokenFile: return .refusal(500, error.description)
            }
        }
    }

    /// `DELETE /whep/<id>`: 200 once the session is torn down; 401 without the token, 404 for an unknown
    /// (or already ended) resource.
    public func delete(id: String, authorization: String?, accessToken: String? = nil) async -> WHEPReply {
        guard token.admits(authorization, accessToken: accessToken) else { return .unauthorized }
        guard await viewers.close(id, reason: "DELETE") else { return .refusal(404, "no such WHEP session") }
        return WHEPReply(status: 200)
    }

    /// `application/sdp`, parameters and case aside.
    static func isSDP(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return mediaType.trimmingCharacters(in: .whitespaces).lowercased() == "application/sdp"
    }
}
