import Foundation
import IntercomAgent
import MQTTCore
import Testing

@Suite("Home Assistant MQTT discovery configs")
struct HomeAssistantDiscoveryTests {
    let discovery = HomeAssistantDiscovery(baseTopic: "intercom/3f2a", discoveryPrefix: "homeassistant", deviceID: "3f2a-b.c",
                                           deviceName: "Gate 3", doorButton: true, cpuTemperature: true)

    func config(_ topic: String) throws -> [String: Any] {
        let message = try #require(discovery.configs.first { $0.topic == topic })
        #expect(message.retain)
        return try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any])
    }

    @Test func everyEntityNamesTheDeviceAndTheAvailabilityTopic() throws {
        let topics = discovery.configs.map(\.topic)
        #expect(topics == [
            "homeassistant/event/intercom_3f2a-b_c/ring/config", "homeassistant/event/intercom_3f2a-b_c/message/config",
            "homeassistant/binary_sensor/intercom_3f2a-b_c/in_call/config",
            "homeassistant/sensor/intercom_3f2a-b_c/state/config", "homeassistant/sensor/intercom_3f2a-b_c/last_outcome/config",
            "homeassistant/image/intercom_3f2a-b_c/snapshot/config", "homeassistant/button/intercom_3f2a-b_c/door/config",
            "homeassistant/sensor/intercom_3f2a-b_c/cpu_temperature/config",
        ])
        var uniqueIDs: Set<String> = []
        for topic in topics {
            let fields = try config(topic)
            uniqueIDs.insert(try #require(fields["unique_id"] as? String))
            #expect(fields["name"] is String)
            #expect(fields["availability_topic"] as? String == "intercom/3f2a/availability")
            let device = try #require(fields["device"] as? [String: Any])
            #expect(device["identifiers"] as? [String] == ["intercom_3f2a-b_c"] && device["name"] as? String == "Gate 3")
        }
        #expect(uniqueIDs.count == topics.count)
    }

    @Test func eventButtonAndTemperatureCarryTheirSchemaFields() throws {
        let ring = try config("homeassistant/event/intercom_3f2a-b_c/ring/config")
        #expect(ring["event_types"] as? [String] == ["ring"] && ring["state_topic"] as? String == "intercom/3f2a/ring")
        #expect(ring["device_class"] as? String == "doorbell")
        let door = try config("homeassistant/button/intercom_3f2a-b_c/door/config")
        #expect(door["command_topic"] as? String == "intercom/3f2a/door/set" && door["payload_press"] as? String == "PRESS")
        let temperature = try config("homeassistant/sensor/intercom_3f2a-b_c/cpu_temperature/config")
        #expect(temperature["device_class"] as? String == "temperature" && temperature["unit_of_measurement"] as? String == "°C")
    }

    @Test func noDoorButtonWhereTheDoorCannotBeOpened() {
        var closed = discovery
        closed.doorButton = false
        closed.cpuTemperature = false
        #expect(!closed.configs.contains { $0.topic.contains("/button/") || $0.topic.contains("cpu_temperature") })
    }

    @Test func theRingEventIsJSONWithEventType() throws {
        let message = discovery.ring(caller: "Visitor \"Ada\"", callerID: "u1", direction: "incoming", route: "example.org")
        #expect(message.topic == "intercom/3f2a/ring" && !message.retain)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: String])
        #expect(fields == ["event_type": "ring", "caller": "Visitor \"Ada\"", "caller_id": "u1", "direction": "incoming", "route": "example.org"])
    }

    @Test func aMessageIsAnEventWithTheTextAndItsSender() throws {
        let config = try config("homeassistant/event/intercom_3f2a-b_c/message/config")
        #expect(config["event_types"] as? [String] == ["message"] && config["state_topic"] as? String == "intercom/3f2a/message")
        let message = discovery.message(text: "Parcel \"for\" you\nthanks", sender: "Visitor Ada", sessionID: "s1")
        #expect(message.topic == "intercom/3f2a/message" && !message.retain)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: String])
        #expect(fields == ["event_type": "message", "text": "Parcel \"for\" you\nthanks", "sender": "Visitor Ada", "session": "s1"])
        let anonymous = discovery.message(text: "hi", sender: nil, sessionID: "s2")
        let anonymousFields = try #require(try JSONSerialization.jsonObject(with: Data(anonymous.payload)) as? [String: String])
        #expect(anonymousFields["sender"] == nil)
    }
}
