import Foundation
import IntercomConfig
import IntercomPlatform
import Logging
import ParseClient
import ParseWire

/// The device's login to the backend (SYSTEM.md §3): a provisioned username/password, or anonymous auth
/// with the id kept in the state directory, so the userID is the same after every restart. The REST client
/// calls back here on 209 for exactly one re-login per request.
public actor BackendSession {
    public let client: ParseRESTClient
    /// The CAs the backend's `https://` and `wss://` certificates are checked against (`[backend] ca_file`):
    /// the REST client's, and the LiveQuery and signaling sockets'.
    public nonisolated let trust: BackendTrust
    private let login: BackendSettings.Login
    private let store: StateStore
    private var identity: DeviceIdentity
    private let logger: Logger
    private var loggedIn: (userID: String, token: String)?
    /// The login under way, so presence and intake starting together log in once.
    private var loggingIn: Task<(userID: String, token: String), any Error>?
    private var tokenObservers: [@Sendable (String) async -> Void] = []
    /// Why the identity in memory is not on disk (a full or read-only state directory); nil when it is.
    public private(set) var unsavedIdentity: SystemCallError?

    /// `identityUnsaved`: the identity could not be written at start-up (a full or read-only disk);
    /// `saveIdentityIfUnsaved()` tries again.
    public init(settings: BackendSettings, identity: DeviceIdentity, store: StateStore, logger: Logger,
                transport: (any ParseHTTPTransport)? = nil, policy: RetryPolicy = RetryPolicy(),
                identityUnsaved: SystemCallError? = nil) {
        let trust = BackendTrust(caFile: settings.caFile)
        self.init(serverURL: settings.serverURL.absoluteString, applicationId: settings.applicationID,
                  clientKey: settings.clientKey, login: settings.login, requestTimeout: settings.requestTimeout,
                  identity: identity, store: store, logger: logger, transport: transport ?? AsyncHTTPParseTransport(trust: trust),
                  trust: trust, policy: policy, identityUnsaved: identityUnsaved)
    }

    public init(serverURL: String, applicationId: String, clientKey: String?, login: BackendSettings.Login,
                requestTimeout: Duration, identity: DeviceIdentity, store: StateStore, logger: Logger,
                transport: any ParseHTTPTransport = AsyncHTTPParseTransport(), trust: BackendTrust = BackendTrust(),
                policy: RetryPolicy = RetryPolicy(), identityUnsaved: SystemCallError? = nil) {
        unsavedIdentity = identityUnsaved
        self.trust = trust
        var key = ParseClientSettings.Key.none
        if let clientKey { key = .client(clientKey) }
        client = ParseRESTClient(
            serverURL: serverURL,
            settings: ParseClientSettings(applicationId: applicationId, key: key,
                                          installationId: identity.installationID, clientVersion: Self.clientVersion,
                                          sessionToken: identity.sessionToken),
            transport: transport, policy: policy, attemptTimeout: requestTimeout, logger: logger)
        self.login = login
        self.store = store
        self.identity = identity
        self.logger = logger
    }

    public static let clientVersion = "intercomd1.0.0"

    /// The userID once logged in.
    public var userID: String? { loggedIn?.userID }

    /// Logs in unless already logged in; returns the userID.
    @discardableResult
    public func ensureLoggedIn() async throws(ParseClientError) -> String {
        if let loggedIn { return loggedIn.userID }
        if let loggingIn { return try await Self.outcome(of: loggingIn).userID }
        await client.setRelogin { [weak self] _ in
            guard let self else { throw ParseClientError.cancelled }
            return try await self.relogin()
        }
        let attempt = Task { () async throws -> (userID: String, token: String) in try await self.logIn() }
        loggingIn = attempt
        defer { loggingIn = nil }
        return try await Self.outcome(of: attempt).userID
    }

    private static func outcome(of attempt: Task<(userID: String, token: String), any Error>)
        async throws(ParseClientError) -> (userID: String, token: String)
    {
        do {
            return try await attempt.value
        } catch let error as ParseClientError {
            throw error
        } catch {
            throw .cancelled
        }
    }

    /// Called with every new session token (LiveQuery must reconnect with it).
    public func onTokenChange(_ observer: @escaping @Sendable (String) async -> Void) {
        tokenObservers.append(observer)
    }

    private func relogin() async throws(ParseClientError) -> String {
        loggedIn = nil
        let token = try await logIn().token
        for observer in tokenObservers { await observer(token) }
        return token
    }

    private func logIn() async throws(ParseClientError) -> (userID: String, token: String) {
        await client.setSessionToken(nil)
        let user: UserResponse
        switch login {
        case .anonymous:
            let anonymousId = identity.anonymousAuthID
            user = try await client.send(UserResponse.self) { builder, id in
                builder.anonymousLogin(anonymousId: anonymousId, requestId: id)
            }
        case .password(let username, let passwordFile):
            let password: String
            do {
                password = try String(contentsOfFile: passwordFile, encoding: .utf8)
                    .trimmingCharacters(in: .newlines)
            } catch {
                throw .unreachable(attempts: 0, detail: "cannot read \(passwordFile): \(error.localizedDescription)")
            }
            user = try await client.send(UserResponse.self) { builder, id in
                builder.login(username: username, password: password, requestId: id)
            }
        }
        await client.setSessionToken(user.sessionToken)
        loggedIn = (user.objectId, user.sessionToken)
        if identity.userID != user.objectId || identity.sessionToken != user.sessionToken {
            identity.userID = user.objectId
            identity.sessionToken = user.sessionToken
            do {
                try store.save(identity)
                unsavedIdentity = nil
            } catch {
                unsavedIdentity = error
                logger.warning("could not save the device identity", metadata: ["error": "\(error)"])
            }
        }
        logger.info("logged in to the backend", metadata: ["userID": "\(user.objectId)"])
        return (user.objectId, user.sessionToken)
    }

    /// Writes the identity if an earlier write failed; true when it is on disk now. Logs the recovery once.
    @discardableResult
    public func saveIdentityIfUnsaved() -> Bool {
        guard let failure = unsavedIdentity else { return true }
        do {
            try store.save(identity)
            unsavedIdentity = nil
            logger.notice("the device identity is saved again", metadata: ["after": "\(failure)", "state": "\(store.directory)"])
            return true
        } catch {
            unsavedIdentity = error
            return false
        }
    }
}
