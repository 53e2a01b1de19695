import Foundation
import MQTTCore

/// The device's topics and its Home Assistant MQTT discovery configs (home-assistant.io/integrations/mqtt,
/// "MQTT Discovery"): one retained config per entity at `<prefix>/<component>/<node id>/<object id>/config`,
/// all naming the same `device` so Home Assistant groups them, all sharing the availability topic.
public struct HomeAssistantDiscovery: Sendable {
    public var baseTopic: String
    public var discoveryPrefix: String
    /// Stable across restarts: the installation id.
    public var deviceID: String
    public var deviceName: String
    /// The door button is announced only where a caller could open the door too (`call.allow_door_open`
    /// and a `[gpio.door]` relay).
    public var doorButton: Bool
    /// The CPU temperature sensor is announced only where the kernel has a thermal zone.
    public var cpuTemperature: Bool

    public init(baseTopic: String, discoveryPrefix: String, deviceID: String, deviceName: String, doorButton: Bool,
                cpuTemperature: Bool) {
        self.baseTopic = baseTopic
        self.discoveryPrefix = discoveryPrefix
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.doorButton = doorButton
        self.cpuTemperature = cpuTemperature
    }

    // MARK: Topics

    public var availabilityTopic: String { "\(baseTopic)/availability" }
    public var stateTopic: String { "\(baseTopic)/state" }
    public var inCallTopic: String { "\(baseTopic)/in_call" }
    public var ringTopic: String { "\(baseTopic)/ring" }
    public var messageTopic: String { "\(baseTopic)/message" }
    public var lastOutcomeTopic: String { "\(baseTopic)/last_outcome" }
    public var cpuTemperatureTopic: String { "\(baseTopic)/cpu_temperature" }
    public var snapshotTopic: String { "\(baseTopic)/snapshot" }
    public var doorCommandTopic: String { "\(baseTopic)/door/set" }
    public static let pressPayload = "PRESS"
    public static let online = "online"
    public static let offline = "offline"

    /// A node id Home Assistant accepts (`[a-zA-Z0-9_-]`).
    var nodeID: String {
        "intercom_" + String(String.UnicodeScalarView(deviceID.unicodeScalars.map {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") ? $0 : "_"
        }))
    }

    // MARK: Configs

    /// Every entity's retained discovery config, in a fixed order.
    public var configs: [MQTTMessage] {
        var entities: [(component: String, object: String, fields: [String: Any])] = [
            ("event", "ring", [
                "name": "Ring", "state_topic": ringTopic, "event_types": ["ring"], "device_class": "doorbell",
                "icon": "mdi:doorbell-video",
            ]),
            ("event", "message", [
                "name": "Message", "state_topic": messageTopic, "event_types": ["message"], "icon": "mdi:message-text",
            ]),
            ("binary_sensor", "in_call", [
                "name": "In call", "state_topic": inCallTopic, "payload_on": "ON", "payload_off": "OFF",
                "device_class": "running",
            ]),
            ("sensor", "state", ["name": "State", "state_topic": stateTopic, "icon": "mdi:phone-classic"]),
            ("sensor", "last_outcome", ["name": "Last call", "state_topic": lastOutcomeTopic, "icon": "mdi:phone-log"]),
            ("image", "snapshot", ["name": "Last visitor", "image_topic": snapshotTopic, "content_type": "image/jpeg"]),
        ]
        if doorButton {
            entities.append(("button", "door", [
                "name": "Open door", "command_topic": doorCommandTopic, "payload_press": Self.pressPayload, "icon": "mdi:door-open",
            ]))
        }
        if cpuTemperature {
            entities.append(("sensor", "cpu_temperature", [
                "name": "CPU temperature", "state_topic": cpuTemperatureTopic, "device_class": "temperature",
                "unit_of_measurement": "°C", "state_class": "measurement", "entity_category": "diagnostic",
            ]))
        }
        return entities.map { entity in
            var fields = entity.fields
            fields["unique_id"] = "\(nodeID)_\(entity.object)"
            fields["availability_topic"] = availabilityTopic
            fields["payload_available"] = Self.online
            fields["payload_not_available"] = Self.offline
            fields["device"] = ["identifiers": [nodeID], "name": deviceName, "manufacturer": "Intercom", "model": "intercomd"]
            return MQTTMessage(topic: "\(discoveryPrefix)/\(entity.component)/\(nodeID)/\(entity.object)/config",
                               payload: Self.json(fields), qos: .atLeastOnce, retain: true)
        }
    }

    /// The ring event's payload: Home Assistant's MQTT event needs `event_type`; the rest become attributes.
    public func ring(caller: String, callerID: String, direction: String, route: String?) -> MQTTMessage {
        var fields: [String: Any] = ["event_type": "ring", "caller": caller, "caller_id": callerID, "direction": direction]
        if let route { fields["route"] = route }
        return MQTTMessage(topic: ringTopic, payload: Self.json(fields))
    }

    /// A text message a caller sent in a call, as a Home Assistant event: `event_type` message, the text and
    /// who sent it as attributes (not retained: an event happens once).
    public func message(text: String, sender: String?, sessionID: String) -> MQTTMessage {
        var fields: [String: Any] = ["event_type": "message", "text": text, "session": sessionID]
        if let sender { fields["sender"] = sender }
        return MQTTMessage(topic: messageTopic, payload: Self.json(fields))
    }

    static func json(_ object: [String: Any]) -> [UInt8] {
        // Sorted keys: the same config is the same bytes (a broker keeps one retained copy anyway).
        Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8))
    }
}
