import Hummingbird
import Logging

/// The `intercom-server` HTTP application. Today it answers the health checks load balancers and the agent
/// use; the Parse-compatible REST subset, LiveQuery, signaling and the web caller are mounted here by the
/// backend issue.
public enum ServerApplication {
    public static func make(host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        router.get("health") { _, _ in HealthResponse(status: "ok") }
        // parse-server answers GET {mount}/health with {"status":"ok"}; clients probe it before logging in.
        router.get("parse/health") { _, _ in HealthResponse(status: "ok") }
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "intercom-server"), logger: logger)
    }
}

struct HealthResponse: ResponseCodable {
    var status: String
}
