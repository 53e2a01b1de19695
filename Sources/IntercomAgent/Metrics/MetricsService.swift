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
