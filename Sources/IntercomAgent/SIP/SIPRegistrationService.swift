import Foundation
import IntercomConfig
import Logging
import ServiceLifecycle
import SIPTransport

/// `[sip]` (docs/sip.md): keeps the device registered with its SIP registrar (digest auth, re-REGISTER before
/// expiry, backoff while the registrar is down or refuses) and puts the registration state on the status
/// board (`/health` `sip`, the `STATUS=` line, `intercom_sip_registered`). The sockets and timers live on the
/// SIP thread (`SIPUserAgent`); this service only starts it and unregisters on shutdown.
public final class SIPRegistrationService: Service {
    private let agent: SIPUserAgent
    private let status: AgentStatusBoard
    private let logger: Logger
    /// The SIP thread's state changes, in order (a Task per change could reorder them).
    private let states: AsyncStream<SIPRegistrationState>

    public init(settings: SIPSettings, status: AgentStatusBoard, logger: Logger) throws(SIPRegistrationServiceError) {
        var password: String?
        if let file = settings.passwordFile {
            do {
                password = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw .passwordFile(path: file, reason: "\(error.localizedDescription)")
            }
        }
        self.logger = logger
        self.status = status
        let (states, continuation) = AsyncStream.makeStream(of: SIPRegistrationState.self, bufferingPolicy: .bufferingNewest(16))
        self.states = states
        agent = SIPUserAgent(settings: SIPUserAgentSettings(settings, password: password), logger: logger) { state in
            continuation.yield(state)
        }
    }

    public func run() async throws {
        await status.setSIP(.registering)
        agent.start()
        await cancelWhenGracefulShutdown {
            for await state in self.states { await self.status.setSIP(state) }
        }
        await agent.stop()
        logger.info("SIP stopped")
    }
}

extension SIPUserAgentSettings {
    init(_ settings: SIPSettings, password: String?) {
        self.init(
            registrarHost: settings.registrarHost, registrarPort: settings.registrarPort, user: settings.user,
            authUser: settings.authUser, password: password, transport: settings.transport == .tcp ? .tcp : .udp,
            localPort: settings.localPort, displayName: settings.displayName, keepAlive: settings.keepAlive,
            registerExpiry: settings.registerExpiry)
    }
}

/// Why SIP registration cannot start.
public enum SIPRegistrationServiceError: Error, CustomStringConvertible {
    case passwordFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .passwordFile(let path, let reason): "cannot read the SIP password file \(path): \(reason)"
        }
    }
}
