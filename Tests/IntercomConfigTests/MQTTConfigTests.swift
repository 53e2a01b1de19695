import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [mqtt] (issue #19)")
struct MQTTConfigTests {
    func mqttSettings(_ text: String, environment: [String: String] = [:]) throws -> MQTTSettings {
        let configuration = try #require(load(text, environment: environment).configuration)
        return try #require(configuration.mqtt)
    }

    @Test("absent by default; the broker, base topic, discovery and keep alive are read")
    func values() throws {
        #expect(try #require(load(minimalConfig).configuration).mqtt == nil)
        let text = minimalConfig + """
            [mqtt]
            broker = "mqtt://ha.local"
            base_topic = "home/gate"
            discovery = false
            discovery_prefix = "ha"
            keep_alive = "60s"

            """
        let mqtt = try mqttSettings(text)
        #expect(mqtt.host == "ha.local" && mqtt.port == 1883)
        #expect(mqtt.baseTopic == "home/gate" && !mqtt.discovery && mqtt.discoveryPrefix == "ha" && mqtt.keepAlive == .seconds(60))
        let defaults = try mqttSettings(minimalConfig + "[mqtt]\nbroker = \"mqtt://10.0.0.2:1884\"\n")
        #expect(defaults.port == 1884 && defaults.baseTopic == nil && defaults.discovery && defaults.discoveryPrefix == "homeassistant")
    }

    @Test("a missing or wrong broker, wildcard topics and a password without a user are problems at their lines")
    func problems() {
        #expect(problemLines(load(minimalConfig + "[mqtt]\n")) == ["intercom.toml:8: mqtt: missing required key \"broker\""])
        #expect(problemLines(load(minimalConfig + "[mqtt]\nbroker = \"tcp://ha.local:1883\"\n")) == [
            "intercom.toml:9: mqtt.broker: expected a URL starting with mqtt:// and naming a host, got \"tcp://ha.local:1883\"",
        ])
        #expect(problemLines(load(minimalConfig + "[mqtt]\nbroker = \"mqtt://ha.local\"\nbase_topic = \"intercom/#\"\n")) == [
            "intercom.toml:10: mqtt.base_topic: expected a topic without wildcards (+, #), a leading or trailing / or control characters, got \"intercom/#\"",
        ])
        #expect(problemLines(load(minimalConfig + "[mqtt]\nbroker = \"mqtt://ha.local\"\npassword_file = \"/x\"\n")) == [
            "intercom.toml:10: mqtt.password_file: is set but mqtt.username is not",
        ])
        #expect(problemLines(load(minimalConfig + "[mqtt]\nbroker = \"mqtt://ha.local\"\ndiscovery_prefx = \"ha\"\n")) == [
            "intercom.toml:10: mqtt.discovery_prefx: unknown key \"discovery_prefx\" (did you mean \"discovery_prefix\"?)",
        ])
    }

    @Test("the password comes from a file or the systemd credential mqtt.password")
    func password() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("pw\n", to: "mqtt.password")
        let text = minimalConfig + "[mqtt]\nbroker = \"mqtt://ha.local\"\nusername = \"intercom\"\n"
        let mqtt = try mqttSettings(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path])
        #expect(mqtt.username == "intercom" && mqtt.passwordFile == credentials.path("mqtt.password"))
        // A user without any password is allowed (brokers may authenticate by user name alone).
        #expect(try mqttSettings(text).passwordFile == nil)
    }
}
