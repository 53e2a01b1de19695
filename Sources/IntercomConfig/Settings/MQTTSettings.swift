import Foundation

/// `[mqtt]`: Home Assistant (or any MQTT consumer) over an MQTT 3.1.1 broker (docs/mqtt.md).
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var username: String?
    /// The password file (absolute, or found through `$CREDENTIALS_DIRECTORY` like every secret).
    public var passwordFile: String?
    /// nil: `intercom/<installation id>`, known only once the state directory is read.
    public var baseTopic: String?
    /// Publish Home Assistant discovery configs (retained) under `discoveryPrefix`.
    public var discovery = true
    public var discoveryPrefix = "homeassistant"
    public var keepAlive: Duration = .seconds(30)

    public static let defaultPort = 1883

    init?(_ reader: ConfigReader?, secrets: SecretResolver) {
        guard let reader else { return nil }
        let broker = reader.url("broker", schemes: ["mqtt"], required: true)
        host = broker?.host ?? ""
        port = broker?.port ?? Self.defaultPort
        if let broker, !(broker.path.isEmpty || broker.path == "/") {
            reader.report("broker", "expected mqtt://HOST[:PORT] without a path, got \"\(broker.absoluteString)\"")
        }
        username = reader.text("username", maxLength: 100)
        let passwordFile = reader.string("password_file")
        if username != nil {
            if case .found(let path) = secrets.locate(passwordFile, credential: "mqtt.password", reader: reader, key: "password_file") {
                self.passwordFile = path
            }
        } else if passwordFile != nil {
            reader.report("password_file", "is set but mqtt.username is not")
        }
        if let topic = reader.string("base_topic") {
            if Self.isPublishTopic(topic) { baseTopic = topic } else {
                reader.report("base_topic", "expected a topic without wildcards (+, #), a leading or trailing / or control characters, got \"\(topic)\"")
            }
        }
        discovery = reader.bool("discovery") ?? discovery
        if let prefix = reader.string("discovery_prefix") {
            if Self.isPublishTopic(prefix) { discoveryPrefix = prefix } else {
                reader.report("discovery_prefix", "expected a topic without wildcards (+, #), a leading or trailing / or control characters, got \"\(prefix)\"")
            }
        }
        keepAlive = reader.duration("keep_alive", in: .seconds(5)...(.seconds(600))) ?? keepAlive
        reader.rejectUnknownKeys()
    }

    /// MQTT 3.1.1 §4.7: a topic name to publish under (no wildcards), without empty first or last levels.
    static func isPublishTopic(_ topic: String) -> Bool {
        !topic.isEmpty && topic.utf8.count <= 1_000 && !topic.hasPrefix("/") && !topic.hasSuffix("/")
            && !topic.contains("+") && !topic.contains("#")
            && !topic.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
