/// What every request of one client carries: where the server is and who is asking.
public struct ParseClientSettings: Sendable, Hashable {
    /// The key a client presents besides the application id (parse-wire §1). A device uses the client key;
    /// the REST key is for trusted tools.
    public enum Key: Sendable, Hashable {
        case none
        case client(String)
        case restAPI(String)
    }

    /// The mount path on the server, e.g. `/parse` (parse-server's default). Host and scheme belong to the IO layer.
    public var mountPath: String
    public var applicationId: String
    public var key: Key
    /// Lowercase UUID kept in the state directory (`_Session.installationId`).
    public var installationId: String
    /// e.g. `intercomd1.0.0`, sent as `X-Parse-Client-Version`.
    public var clientVersion: String
    /// Set after login; nil means the public user.
    public var sessionToken: String?

    public init(
        mountPath: String = "/parse", applicationId: String, key: Key = .none, installationId: String,
        clientVersion: String, sessionToken: String? = nil
    ) {
        var mount = mountPath.hasPrefix("/") ? mountPath : "/" + mountPath
        while mount.count > 1, mount.hasSuffix("/") { mount.removeLast() }
        self.mountPath = mount == "/" ? "" : mount
        self.applicationId = applicationId
        self.key = key
        self.installationId = installationId
        self.clientVersion = clientVersion
        self.sessionToken = sessionToken
    }
}
