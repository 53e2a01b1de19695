/// Who a request runs as, resolved once from its headers (parse-server `handleParseHeaders` and
/// `handleParseSession`): the master key, a logged-in user, or the public.
struct RequestAuth: Sendable {
    var isMaster = false
    var user: UserRecord?
    var session: SessionRecord?
    var sessionToken: String?
    var installationId: String?

    static let publicAccess = RequestAuth()

    var userId: String? { user?.objectId }
}
