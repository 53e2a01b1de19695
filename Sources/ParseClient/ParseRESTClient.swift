import Foundation
import Logging
import ParseWire

/// The agent's Parse REST client (parse-wire.md §1, §7): builds requests with the SDK headers, reuses each
/// request's `X-Parse-Request-Id` across its retries, retries transport errors and 5xx with jittered
/// exponential backoff, backs off on 429, and answers a 209 with exactly one re-login.
public actor ParseRESTClient {
    /// Logs the device in again and returns the new session token (called on 209).
    public typealias Relogin = @Sendable (ParseRESTClient) async throws -> String

    public nonisolated let baseURL: String
    public private(set) var settings: ParseClientSettings
    private let transport: any ParseHTTPTransport
    private let policy: RetryPolicy
    private let attemptTimeout: Duration
    private let decoder = ParseResponseDecoder()
    private let logger: Logger
    private var relogin: Relogin?
    private var random = SystemRandomNumberGenerator()

    /// - Parameter serverURL: the Parse server URL including its mount path, e.g. `http://host:1337/parse`.
    public init(serverURL: String, settings: ParseClientSettings, transport: any ParseHTTPTransport = AsyncHTTPParseTransport(),
                policy: RetryPolicy = RetryPolicy(), attemptTimeout: Duration = .seconds(10), logger: Logger) {
        let (base, mount) = Self.split(serverURL)
        baseURL = base
        var settings = settings
        settings = ParseClientSettings(mountPath: mount, applicationId: settings.applicationId, key: settings.key,
                                       installationId: settings.installationId, clientVersion: settings.clientVersion,
                                       sessionToken: settings.sessionToken)
        self.settings = settings
        self.transport = transport
        self.policy = policy
        self.attemptTimeout = attemptTimeout
        self.logger = logger
    }

    public func setRelogin(_ relogin: @escaping Relogin) {
        self.relogin = relogin
    }

    public func setSessionToken(_ token: String?) {
        settings.sessionToken = token
    }

    public var sessionToken: String? { settings.sessionToken }

    /// The server's clock as its responses' `Date` headers show it (call rows carry server times).
    public private(set) var serverClock = ServerClockEstimate()

    /// Sends the request `make` builds and decodes the answer as `T`. `make` is called again after a
    /// re-login (the new token changes the headers) with the same request id.
    public func send<T: Decodable & Sendable>(
        _ type: T.Type, _ make: @Sendable (ParseRequestBuilder, UUID) -> ParseRequest
    ) async throws(ParseClientError) -> T {
        let requestId = UUID()
        var state = RetryState(policy: policy)
        var lastFailure = ""
        while true {
            if Task.isCancelled { throw .cancelled }
            let request = make(ParseRequestBuilder(settings: settings), requestId)
            let outcome: AttemptOutcome
            var response: ParseHTTPResponse?
            do {
                let sentAt = Date()
                let received = try await transport.execute(request, baseURL: baseURL, timeout: attemptTimeout)
                if let date = received.date { serverClock.record(dateHeader: date, sentAt: sentAt, receivedAt: Date()) }
                response = received
                outcome = .received(status: received.status, body: received.body, retryAfterHeader: received.retryAfter)
            } catch {
                lastFailure = "\(request.method.rawValue) \(request.path): \(error)"
                outcome = .transportError
            }
            switch state.decide(outcome, using: &random) {
            case .succeeded:
                guard let response else { throw .unreachable(attempts: state.attempts, detail: lastFailure) }
                do {
                    return try decoder.decode(T.self, status: response.status, body: response.body)
                } catch {
                    throw .malformedResponse(error)
                }
            case .retry(let seconds):
                logger.debug("retrying backend request",
                             metadata: ["path": "\(request.path)", "after": "\(seconds)", "attempt": "\(state.attempts)"])
                do { try await Task.sleep(for: .milliseconds(Int(seconds * 1000))) } catch { throw .cancelled }
            case .relogin:
                guard let relogin else { throw Self.failure(response, state: state, lastFailure: lastFailure) }
                logger.info("session token rejected (209); logging in again")
                do {
                    settings.sessionToken = try await relogin(self)
                } catch let error as ParseClientError {
                    throw error
                } catch {
                    throw .unreachable(attempts: state.attempts, detail: "re-login failed: \(error)")
                }
            case .fail:
                if state.reloggedIn, let response,
                   ParseResponseDecoder.serverError(status: response.status, body: response.body)?.knownCode == .invalidSessionToken {
                    throw .sessionRejected
                }
                throw Self.failure(response, state: state, lastFailure: lastFailure)
            }
        }
    }

    private static func failure(_ response: ParseHTTPResponse?, state: RetryState, lastFailure: String) -> ParseClientError {
        guard let response else { return .unreachable(attempts: state.attempts, detail: lastFailure) }
        if let error = ParseResponseDecoder.serverError(status: response.status, body: response.body) {
            return .server(error)
        }
        return .malformedResponse(.notJSON("HTTP \(response.status) without a Parse error body"))
    }

    /// `http://host:1337/parse/` → (`http://host:1337`, `/parse`).
    static func split(_ serverURL: String) -> (base: String, mount: String) {
        guard let schemeEnd = serverURL.range(of: "://") else { return (serverURL, "/parse") }
        let afterScheme = serverURL[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return (serverURL, "") }
        return (String(serverURL[..<slash]), String(serverURL[slash...]))
    }
}
