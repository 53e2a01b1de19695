import Foundation
import IntercomPlatform

/// The WHEP bearer token (`[whep] token_file`) and the check of a request's `Authorization` header against
/// it (RFC 6750 §2.1), in constant time.
public struct WHEPToken: Sendable {
    let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The file's first line, without surrounding white space; an empty one is refused (it would let
    /// anybody in who sends `Bearer ` and nothing else).
    public static func load(path: String) throws(WHEPError) -> WHEPToken {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .tokenFile(path: path, reason: error.localizedDescription)
        }
        let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard !token.isEmpty else { throw .tokenFile(path: path, reason: "the file is empty") }
        return WHEPToken(token)
    }

    /// Whether `authorization` is `Bearer <this token>` (the scheme's case does not matter), or, for players
    /// that cannot set a header (go2rtc's WHEP source), the URL's `access_token` query parameter is the token
    /// (RFC 6750 §2.3).
    public func admits(_ authorization: String?, accessToken: String? = nil) -> Bool {
        if let accessToken, ConstantTime.equal(accessToken, value) { return true }
        guard let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        return ConstantTime.equal(parts[1].trimmingCharacters(in: .whitespaces), value)
    }
}
