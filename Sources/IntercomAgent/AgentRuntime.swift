import IntercomConfig
import IntercomPlatform
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle
import CallCore
import GPIO

/// Assembles the agent's services for a validated configuration and runs them with graceful shutdown on
/// SIGTERM/SIGINT: started in order, stopped in reverse.
///
/// The services: systemd notify, media (camera, encoders, speaker), presence (`ActiveUsers` row with
/// heartbeat, deleted on stop), call intake (LiveQuery plus polling, exactly once per row), the call
/// (state machine, signaling rooms, WebRTC media from the shared encoders), WHEP players when `[whep]` is
/// configured, the metrics port (`/metrics`, `/health`), and the buttons, LEDs and door relay when `[gpio]` is configured.
public struct AgentRuntime: Sendable {
    public var configuration: IntercomConfiguration
    public var environment: [String: String]
    /// Where the `[gpio]` lines live: libgpiod on a board, `SimulatedGPIOBackend` in the demo.
    public var gpioBackend: any GPIOBackend

    public init(configuration: IntercomConfiguration, environment: [String: String],
                gpioBackend: any GPIOBackend = LibGPIODBackend()) {
        self.configuration = configuration
        self.environment = environment
        self.gpioBackend = gpioBackend
    }

    public func run() async throws {
        let logger = Logger(label: "intercomd")
        let store = StateStore(directory: configuration.state.directory)
        try store.prepare()
        let (identity, recovery, unsaved) = try store.loadOrCreateIdentity()
        if let recovery { logger.warning("state recovered: \(recovery)") }
        if let unsaved {
            logger.error("the state directory is full or read-only: the device identity is kept in memory and saved when it can be",
                         metadata: ["error": "\(unsaved)"])
        }
        logger.info("device identity loaded", metadata: ["installation": "\(identity.installationID)", "state": "\(store.directory)"])

        let readiness = ReadinessGate(required: ["state", "backend", "media"])
        await readiness.markReady("state")
        // The geopoint is where "call the nearest <title>" searches from (validated when the config loaded).
        let location = try? GeoPoint(latitude: configuration.identity.latitude, longitude: configuration.identity.longitude)
        let status = AgentStatusBoard(title: configuration.identity.title, location: location, logger: logger)
        await status.setStateUnsaved(unsaved != nil)
        await Self.checkStateDurability(store, login: configuration.backend.login, status: status, logger: logger)
        let backend = configuration.backend
        // Two tries per request: the presence and intake loops retry on their own schedule (capped at 8 s).
        let session = BackendSession(settings: backend, identity: identity, store: store, logger: logger,
                                     policy: RetryPolicy(maxAttempts: 2), identityUnsaved: unsaved)
        let presence = PresenceService(
            session: session, heartbeat: configuration.presence.heartbeat, readiness: readiness, status: status,
            logger: logger, fields: try PresenceService.fields(for: configuration))
        let intake = CallIntakeService(
            session: session, liveQueryURL: backend.liveQueryURL.absoluteString, applicationId: backend.applicationID,
            clientKey: backend.clientKey, installationId: identity.installationID, status: status, logger: logger)
        let policy = CallPolicy.from(configuration.call)
        let (microphone, speaker) = MediaService.Settings.endpoints(configuration.audio)
        let spoken = configuration.audio.speaksMessages ? ", messages spoken (voice \(configuration.audio.speakVoice))" : ""
        logger.info("media: \(MediaService.Settings.describe(configuration.video)), \(microphone), \(speaker)\(spoken)")
        let metrics = AgentMetrics()
        let cameraFound: @Sendable (String) -> Void = { [logger] path in
            logger.notice("camera found at \(path); sending its frames instead of the test pattern")
        }
        // READY waits for the first encoded frame (or a logged camera fault with the test pattern instead).
        let media = MediaService(settings: .from(configuration.video, audio: configuration.audio, onCameraFound: cameraFound),
                                 metrics: metrics, logger: logger, onCameraChange: { condition in Task { await status.setCamera(condition) } }) {
            Task { await readiness.markReady("media") }
        }
        // The lines are claimed by ControlsService, which keeps trying while another program holds one.
        let gpioIndicators = configuration.gpio.map { _ in GPIOIndicators(logger: logger) }
        let indicators: any CallIndicators = gpioIndicators ?? NoIndicators()
        // `[mqtt]`: Home Assistant entities; the door button only where a caller could open the door too.
        var door: (@Sendable () async -> Void)?
        if configuration.call.allowDoorOpen, configuration.gpio?.door != nil { door = { await gpioIndicators?.pulseDoor() } }
        let mqtt = try configuration.mqtt.map { settings throws(MQTTBridgeError) in
            try MQTTBridge(settings: settings, deviceID: identity.installationID, deviceName: configuration.identity.title,
                           door: door, logger: logger)
        }
        var onJPEG: (@Sendable ([UInt8]) -> Void)?
        if let mqtt { onJPEG = { mqtt.snapshot($0) } }
        // The visitor log (issue #19): snapshots from the encoder's frames, a CallLog row per call.
        let visits = VisitorLog(session: session, frames: { await media.snapshotFrame(timeout: $0) },
                                settings: configuration.visits, metrics: metrics, logger: logger,
                                onJPEG: onJPEG)
        // One media factory for the calls' peers and the WHEP players: the same sessions on the same encoder.
        let mediaFactory = WebRTCCallMediaFactory(pipeline: media, metrics: metrics, logger: logger)
        // `[audio] speak_messages`: received texts said on the speaker (espeak-ng), mixed into the call's audio.
        let messageSpeaker = configuration.audio.speaksMessages
            ? MessageSpeaker(speaker: media.speaker, voice: configuration.audio.speakVoice, limit: ReceivedText.logLimit,
                             metrics: metrics, logger: logger)
            : nil
        messageSpeaker?.prepare()
        let coordinator = CallCoordinator(
            policy: policy, session: session, mediaFactory: mediaFactory,
            indicators: indicators, status: status, deviceTitle: configuration.identity.title,
            allowedSignalHosts: backend.allowedSignalHosts, metrics: metrics, visits: visits, observer: mqtt,
            sendsAudio: configuration.audio.enabled, messageSpeaker: messageSpeaker, logger: logger)
        let calls = CallService(coordinator: coordinator, calls: intake.calls)
        let notify = SystemdNotifyService(
            notifier: SystemdNotifier(environment: environment), readiness: readiness, logger: logger
        ) { await status.line }
        // Started in this order and stopped in reverse: the controls release their lines (LEDs off, relay
        // open), calls end (a `bye` to the peer), the visitor log gets up to 3 s to store the last visit,
        // the intake stops, presence deletes the row, the camera, encoders and speaker stop, and systemd
        // hears STOPPING=1 last.
        let sipService = try configuration.sip.map { sip in
            try SIPRegistrationService(settings: sip, status: status, media: media, coordinator: coordinator, logger: logger)
        }
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: notify), .init(service: media), .init(service: presence), .init(service: intake),
            .init(service: VisitorLogService(log: visits, logger: logger)), .init(service: calls),
            .init(service: AddressChangeService(coordinator: coordinator, logger: logger,
                                                onChange: sipService.map { sip in [{ _ in sip.addressesChanged() }] } ?? [])),
        ]
        if let mqtt { services.append(.init(service: mqtt)) }
        // `[whep]`: view-only players (go2rtc, Home Assistant) on their own port, counted against call.max_viewers;
        // media runs while one holds a slot (docs/whep.md).
        if let whep = configuration.whep {
            let viewers = WHEPViewers(limit: configuration.call.maxViewers, factory: CallMediaWHEPPlayerFactory(media: mediaFactory),
                                      logger: logger) { [media, metrics] count in
                metrics.whepViewers(count)
                media.setDemand("whep", wanted: count > 0)
            }
            let endpoint = WHEPEndpoint(token: try WHEPToken.load(path: whep.tokenFile), viewers: viewers)
            services.append(.init(service: WHEPService(settings: whep, endpoint: endpoint, logger: logger)))
        }
        if let sipService { services.append(.init(service: sipService)) }
        if configuration.metrics.enabled {
            services.append(.init(service: MetricsService(settings: configuration.metrics, metrics: metrics,
                                                          status: status, logger: logger)))
        }
        if let gpio = configuration.gpio, let gpioIndicators {
            services.append(.init(service: ControlsService(gpio: gpio, backend: gpioBackend, coordinator: coordinator,
                                                           indicators: gpioIndicators, status: status, logger: logger)))
        }
        let group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            ))
        try await group.run()
        logger.info("stopped")
    }

    /// An overlay or tmpfs state directory forgets the identity at every boot. A provisioned device logs in
    /// with its credentials and keeps its userID anyway; an anonymous one signs up anew each time, which
    /// breaks the callers' saved contacts: that is a `/health` warning (docs/deployment.md, "Read-only and
    /// overlay roots").
    public static func checkStateDurability(_ store: StateStore, login: BackendSettings.Login, status: AgentStatusBoard,
                                            logger: Logger) async {
        guard let filesystem = store.volatileFilesystem() else { return }
        let metadata: Logger.Metadata = ["state": "\(store.directory)", "filesystem": "\(filesystem)"]
        if case .password = login {
            logger.info("the state directory is in RAM: the userID comes from the provisioned credentials", metadata: metadata)
        } else {
            logger.warning(
                "the state directory is in RAM: this anonymous device gets a new userID at every boot (set [state] directory on a persistent partition, or provision backend credentials)",
                metadata: metadata)
            await status.setStateVolatile(true)
        }
    }
}
