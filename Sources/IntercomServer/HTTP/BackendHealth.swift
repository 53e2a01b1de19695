import Hummingbird
import Synchronization

/// What `/health` answers: 200 with `{"status": "ok", "database": …}` while the database answers (and, on
/// a fleet, the change bus listens), else 503 with the reason, so a load balancer's health check takes an
/// instance that lost its database out of rotation. The probe is one `SELECT 1`, at most once a second
/// however often `/health` is asked.
final class BackendHealth: Sendable {
    private let database: ServerDatabase
    private let bus: PostgresBus?
    private let lastProbe = Mutex<(at: ContinuousClock.Instant, failure: String?)?>(nil)

    static let probeInterval = Duration.seconds(1)

    init(database: ServerDatabase, bus: PostgresBus?) {
        self.database = database
        self.bus = bus
    }

    func report() async -> (healthy: Bool, body: [String: JSONValue]) {
        let now = ContinuousClock.now
        var failure: String?
        if let cached = lastProbe.withLock({ $0 }), now - cached.at < Self.probeInterval {
            failure = cached.failure
        } else {
            failure = await database.probe()
            lastProbe.withLock { $0 = (now, failure) }
        }
        var body: [String: JSONValue] = ["database": .string(failure.map { "unavailable: " + $0 } ?? "ok")]
        var healthy = failure == nil
        if let bus {
            switch bus.currentState {
            case .listening: body["bus"] = "listening"
            case .starting: body["bus"] = "starting"; healthy = false
            case .reconnecting(let reason): body["bus"] = .string("reconnecting: " + reason); healthy = false
            }
            let figures = bus.figures
            body["busFigures"] = [
                "sent": .number(Double(figures.sent)), "received": .number(Double(figures.received)),
                "spilled": .number(Double(figures.spilled)), "failed": .number(Double(figures.failed)),
            ]
        }
        body["status"] = healthy ? "ok" : "unavailable"
        return (healthy, body)
    }

    func response() async -> Response {
        let (healthy, body) = await report()
        return Response(status: healthy ? .ok : .serviceUnavailable,
                        headers: [.contentType: "application/json", .cacheControl: "no-store"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: JSONCoding.encode(.object(body)))))
    }
}
