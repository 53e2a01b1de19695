import Glibc
import IntercomAgent
import Logging
import MQTTCore
import ParseWire
import Testing

@Suite("MQTT client without a broker")
struct MQTTClientTests {
    /// A loopback port nothing listens on: bound, then closed.
    func closedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The call path publishes from the coordinator's inbox: with the broker refusing connections, 10,000
    /// publishes (retained state and events) return at once, and a stop ends the thread without waiting out
    /// the reconnect delay. That delay is at least 15 s here (equal jitter over a 30 s base), so a stop under
    /// 10 s proves the thread woke for it; the margin is for the unit stage, where a thousand tests share two
    /// cores and a prompt stop once took 3.8 s to be observed.
    @Test func publishingNeverWaitsForTheBroker() async throws {
        var logger = Logger(label: "mqtt-client-test")
        logger.logLevel = .critical
        let client = MQTTClient(endpoint: .init(host: "127.0.0.1", port: try closedPort()),
                                configuration: MQTTSessionConfiguration(clientID: "test", retry: RetryPolicy(baseDelaySeconds: 30, maxDelaySeconds: 60)),
                                logger: logger) { _ in }
        client.start()
        let clock = ContinuousClock()
        let publishing = clock.measure {
            for index in 0..<10_000 {
                client.publish(MQTTMessage(topic: "t/state", text: "\(index)", retain: true))
                client.publish(MQTTMessage(topic: "t/ring", text: "{}"))
            }
        }
        #expect(publishing < .seconds(1), "20,000 publishes took \(publishing)")
        let stopping = await clock.measure { await client.stop() }
        #expect(stopping < .seconds(10), "stop took \(stopping)")
    }
}
