import ControlsCore
import Foundation
import IntercomConfig
import Logging
import ServiceLifecycle
import SIPTransport
import WebRTCCore

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
    private let callEvents: AsyncStream<SIPCallEvent>
    private let calls: SIPCalls
    private let coordinator: CallCoordinator
    /// Places the call button's SIP calls (`[call] target = "sip:…"`).
    private let dialer: SIPDialer

    /// SIP calls (issue #18) ring `coordinator` and use `media`.
    init(settings: SIPSettings, status: AgentStatusBoard, media: MediaService, coordinator: CallCoordinator,
         logger: Logger) throws(SIPRegistrationServiceError) {
        let password = try settings.passwordFile.map { file throws(SIPRegistrationServiceError) in
            try Self.secret(file, as: SIPRegistrationServiceError.passwordFile)
        }
        var doorCode: DoorCodePolicy.Configuration?
        if let file = settings.doorCodeFile {
            let code = try Self.secret(file, as: SIPRegistrationServiceError.doorCodeFile)
            do {
                doorCode = try DoorCodePolicy.Configuration(code: code)
            } catch {
                throw .doorCodeFile(path: file, reason: "expected at least 4 digits or *, got \(code.count) characters")
            }
        }
        calls = SIPCalls(media: media, coordinator: coordinator, allowed: settings.allow, doorCode: doorCode,
                         srtp: SIPSRTPMode(settings.srtp), codecs: settings.codecs.map(SIPAudioCodec.init),
                         postDialDigits: settings.postDialDigits, video: settings.video, logger: logger)
        self.logger = logger
        self.status = status
        self.coordinator = coordinator
        let (states, continuation) = AsyncStream.makeStream(of: SIPRegistrationState.self, bufferingPolicy: .bufferingNewest(16))
        self.states = states
        let (callEvents, callSink) = AsyncStream.makeStream(of: SIPCallEvent.self)
        self.callEvents = callEvents
        agent = SIPUserAgent(settings: SIPUserAgentSettings(settings, password: password), logger: logger,
                             onState: { state in continuation.yield(state) }, onCall: { event in callSink.yield(event) })
        dialer = SIPDialer(calls: calls, agent: agent, registrarHost: settings.registrarHost, registrarPort: settings.registrarPort)
    }

    public func run() async throws {
        await status.setSIP(.registering)
        await coordinator.attachSIP(dialer)
        agent.start()
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { for await state in self.states { await self.status.setSIP(state) } }
                group.addTask { await self.handleCalls() }
            }
        }
        await agent.stop()
        logger.info("SIP stopped")
    }

    /// The host's addresses changed (`AddressChangeService`): the SIP thread re-registers from a new address.
    func addressesChanged() { agent.addressesChanged() }

    /// INVITEs and what becomes of them, in the order the SIP thread saw them.
    private func handleCalls() async {
        for await event in callEvents { await calls.handle(event, agent: agent) }
    }

    /// A secret file's text without its line ends (a password may begin or end with a space).
    private static func secret(_ file: String, as failure: (String, String) -> SIPRegistrationServiceError)
        throws(SIPRegistrationServiceError) -> String {
        do {
            return try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines)
        } catch {
            throw failure(file, "\(error.localizedDescription)")
        }
    }
}

extension SIPUserAgentSettings {
    init(_ settings: SIPSettings, password: String?) {
        self.init(
            registrarHost: settings.registrarHost, registrarPort: settings.registrarPort, user: settings.user,
            authUser: settings.authUser, password: password, transport: settings.transport == .tcp ? .tcp : .udp,
            localPort: settings.localPort, displayName: settings.displayName, keepAlive: settings.keepAlive,
            registerExpiry: settings.registerExpiry)
        contactRewrite = settings.contactRewrite
    }
}

/// Why SIP registration cannot start.
public enum SIPRegistrationServiceError: Error, CustomStringConvertible {
    case passwordFile(path: String, reason: String)
    case doorCodeFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .passwordFile(let path, let reason): "cannot read the SIP password file \(path): \(reason)"
        case .doorCodeFile(let path, let reason): "unusable SIP door code file \(path): \(reason)"
        }
    }
}
