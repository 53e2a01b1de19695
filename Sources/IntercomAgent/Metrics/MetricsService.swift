import Foundation
import Hummingbird
import IntercomConfig
import Logging
import ServiceLifecycle

/// The agent's local HTTP port (SYSTEM.md §10, default `127.0.0.1:9464`): `GET /metrics` in the
/// Prometheus text format and `GET /health` as JSON (200 while registered with the backend, else 503, so a
/// fleet monitor sees an offline device). A port that cannot be bound is logged and costs only the metrics:
/// the intercom keeps working.
public struct MetricsService: Service {
    let settings: MetricsSettings
    let metrics: AgentMetrics
    let status: AgentStatusBoard
    let logger: Logger
    let thermalRoot: String
    let onListening: @Sendable (Int) async -> Void

    public init(settings: MetricsSettings, metrics: AgentMetrics, status: AgentStatusBoard, logger: Logger,
                thermalRoot: String = "/sys/class/thermal", onListening: @escaping @Sendable (Int) async -> Void = { _ in }) {
        self.settings = settings
        self.metrics = metrics
        self.status = status
        self.logger = logger
        self.thermalRoot = thermalRoot
        self.onListening = onListening
    }

    public func run() async throws {
        let router = Router()
        let metrics = self.metrics, status = self.status, thermalRoot = self.thermalRoot
        router.get("metrics") { _, _ in
            let body = metrics.exposition(status: await status.snapshot,
                                          temperatureCelsius: CPUTemperature.read(thermalRoot: thermalRoot))
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        router.get("health") { _, _ in
            let snapshot = await status.snapshot
            let health = HealthReport(snapshot)
            let body = try JSONEncoder().encode(health)
            return Response(status: snapshot.registered ? .ok : .serviceUnavailable,
                            headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let host = settings.host
        await LocalHTTPPort(host: host, port: settings.port, purpose: "metrics", logger: logger).serve(
            router, listening: { "metrics at http://\(host):\($0)/metrics, health at /health" }, onListening: onListening)
    }
}

/// `/health`: the agent's state in a few fields (the `status` line is the systemd `STATUS=` text).
struct HealthReport: Codable, Equatable {
    var status: String
    var registered: Bool
    var liveQuery: Bool
    var call: String
    var callsReceived: Int
    var line: String
    /// Seconds the backend's clock is ahead of the device's; absent before the first answer.
    var clockSkewSeconds: Double?
    /// Problems that do not stop calls (`clock_skew`, `gpio_unclaimed`, `button_stuck`,
    /// `button_chattering`, `camera_lost`, `camera_failed`, `state_unsaved`, `state_volatile`, `sip_unregistered`); the status stays `ok`.
    var warnings: [String]
    /// The buttons behind `button_stuck` and `button_chattering` (absent when none).
    var stuckButtons: [String]?
    var chatteringButtons: [String]?
    /// The SIP registration (`registered`, `registering`, `auth failed`, `unreachable`, `refused`); absent without `[sip]`.
    var sip: String?
    /// Why it is not registered (e.g. `auth failed: wrong user or password (challenged again)`).
    var sipDetail: String?

    init(_ snapshot: AgentStatusSnapshot) {
        status = snapshot.registered ? "ok" : "offline"
        registered = snapshot.registered
        liveQuery = snapshot.liveQueryUp
        call = snapshot.callState
        callsReceived = snapshot.callsReceived
        line = snapshot.line
        clockSkewSeconds = snapshot.clockSkewSeconds.map { ($0 * 10).rounded() / 10 }
        warnings = snapshot.warnings
        stuckButtons = snapshot.stuckButtons.isEmpty ? nil : snapshot.stuckButtons
        chatteringButtons = snapshot.chatteringButtons.isEmpty ? nil : snapshot.chatteringButtons
        sip = snapshot.sip?.word
        sipDetail = snapshot.sip?.description
    }
}
