import CallCore
import Foundation
import IntercomConfig
import Logging
import MQTTCore
import ParseWire
import ServiceLifecycle

/// `[mqtt]` (docs/mqtt.md): the device as Home Assistant entities. Publishes the discovery configs and the
/// state topics (retained, so a restarted Home Assistant sees the latest), the ring event, the snapshot and
/// the CPU temperature; takes the door button's presses. Everything goes through `MQTTClient`'s bounded
/// inbox: the call machine calls `callStateChanged` between two inputs and never waits for the broker.
public final class MQTTBridge: CallObserver, Service {
    public let discovery: HomeAssistantDiscovery
    private let client: MQTTClient
    private let settings: MQTTSettings
    private let logger: Logger
    /// How often the CPU temperature is published.
    static let temperatureInterval: Duration = .seconds(60)

    /// `door`: pulses the relay (the same path as a caller's door request); nil when the door cannot be
    /// opened from outside (no `call.allow_door_open` or no `[gpio.door]`), and then no button is announced.
    public init(settings: MQTTSettings, deviceID: String, deviceName: String, door: (@Sendable () async -> Void)?,
                logger: Logger) throws(MQTTBridgeError) {
        self.settings = settings
        self.logger = logger
        let discovery = HomeAssistantDiscovery(
            baseTopic: settings.baseTopic ?? "intercom/\(deviceID)", discoveryPrefix: settings.discoveryPrefix,
            deviceID: deviceID, deviceName: deviceName, doorButton: door != nil, cpuTemperature: CPUTemperature.read() != nil)
        self.discovery = discovery
        var password: [UInt8]?
        if let file = settings.passwordFile {
            do {
                password = Array(try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .newlines).utf8)
            } catch {
                throw .passwordFile(path: file, reason: "\(error.localizedDescription)")
            }
        }
        let will = MQTTMessage(topic: discovery.availabilityTopic, text: HomeAssistantDiscovery.offline, qos: .atLeastOnce, retain: true)
        let configuration = MQTTSessionConfiguration(
            clientID: "intercom-\(deviceID)".prefix(64).description, keepAlive: settings.keepAlive, will: will,
            username: settings.username, password: password,
            subscriptions: door == nil ? [] : [.init(topicFilter: discovery.doorCommandTopic, qos: .atLeastOnce)])
        let commandTopic = discovery.doorCommandTopic
        client = MQTTClient(endpoint: .init(host: settings.host, port: settings.port), configuration: configuration,
                            logger: logger) { message in
            guard message.topic == commandTopic else { return }
            guard let door, message.text == HomeAssistantDiscovery.pressPayload else {
                logger.warning("MQTT door command ignored", metadata: ["payload": "\(message.text.prefix(40))"])
                return
            }
            logger.notice("opening the door (MQTT button)")
            Task { await door() }
        }
    }

    public func run() async throws {
        client.start()
        if settings.discovery { for config in discovery.configs { client.publish(config) } }
        publish(discovery.availabilityTopic, HomeAssistantDiscovery.online)
        publish(discovery.inCallTopic, "OFF")
        logger.info("MQTT: publishing under \(discovery.baseTopic)",
                    metadata: ["broker": "\(settings.host):\(settings.port)", "discovery": "\(settings.discovery ? settings.discoveryPrefix : "off")"])
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if self.discovery.cpuTemperature, let celsius = CPUTemperature.read() {
                    self.publish(self.discovery.cpuTemperatureTopic, String(format: "%.1f", celsius))
                }
                try? await Task.sleep(for: Self.temperatureInterval)
            }
        }
        await client.stop()
    }

    private func publish(_ topic: String, _ text: String, retain: Bool = true) {
        client.publish(MQTTMessage(topic: topic, text: text, retain: retain))
    }

    // MARK: CallObserver

    public func callStateChanged(_ state: CallState, route: String?, newCall: Bool) {
        publish(discovery.stateTopic, state.name)
        let inCall: Bool
        switch state {
        case .connecting, .inCall: inCall = true
        default: inCall = false
        }
        publish(discovery.inCallTopic, inCall ? "ON" : "OFF")
        // Every new incoming call rings, answered at once or not (an outgoing one dials).
        if newCall, let context = state.context, context.direction == .incoming {
            client.publish(discovery.ring(caller: context.remoteTitle, callerID: context.remoteID,
                                          direction: "\(context.direction)", route: route))
        }
    }

    public func callEnded(_ summary: CallSummary) {
        publish(discovery.lastOutcomeTopic, summary.outcome.metricLabel)
    }

    public func messageReceived(_ message: ReceivedText, sessionID: String) {
        client.publish(discovery.message(text: message.text, sender: message.senderName, sessionID: sessionID))
    }

    /// The visitor log's JPEG of the ring (retained: the image entity shows the last visitor).
    public func snapshot(_ jpeg: [UInt8]) {
        client.publish(MQTTMessage(topic: discovery.snapshotTopic, payload: jpeg, retain: true))
    }
}

/// Why the MQTT bridge cannot start.
public enum MQTTBridgeError: Error, CustomStringConvertible {
    case passwordFile(path: String, reason: String)

    public var description: String {
        switch self {
        case .passwordFile(let path, let reason): "cannot read the MQTT password file \(path): \(reason)"
        }
    }
}
