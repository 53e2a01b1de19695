import Glibc
import Logging
import SIPCore
import Synchronization
import Testing
@testable import SIPTransport

/// The real `sip` thread following the network: the Contact rewritten to the address a registrar reports in
/// Via `received`/`rport` (RFC 3581), and a new REGISTER when the local address toward the registrar changes.
@Suite("SIP user agent following the network")
struct SIPUserAgentNetworkChangeTests {
    /// The local address toward the registrar as the test sets it (the kernel's answer in the agent).
    final class Route: Sendable {
        let host = Mutex("127.0.0.1")
        func toward(_ remote: SIPSocketAddress) throws(SIPTransportError) -> SIPSocketAddress {
            try SIPSocketAddress.resolve(host: host.withLock { $0 }, port: 0, datagram: true)
        }
    }

    static func agent(_ registrar: StampingRegistrar, rewrite: Bool = true, route: Route = Route()) -> SIPUserAgent {
        var settings = SIPUserAgentSettings(
            registrarHost: "127.0.0.1", registrarPort: Int(registrar.port), user: "gate", authUser: "gate", password: nil,
            transport: .udp, localPort: 0, displayName: nil, keepAlive: .seconds(25), registerExpiry: .seconds(60))
        settings.contactRewrite = rewrite
        return SIPUserAgent(settings: settings, logger: Logger(label: "test"), onState: { _ in }, onCall: { _ in },
                            localAddressToward: { remote throws(SIPTransportError) in try route.toward(remote) })
    }

    @Test("a registrar that sees us elsewhere: the next REGISTER's Contact is that address, once, the old one removed")
    func rewritesOnce() async throws {
        let registrar = try StampingRegistrar()
        registrar.stamp.withLock { $0 = ("198.51.100.7", 40_000) }
        let agent = Self.agent(registrar)
        agent.start()
        try await registrar.serve(for: .seconds(5)) { registrar.registerCount >= 2 }
        // The same address reported for the rewritten Contact: no further REGISTER.
        try await registrar.serve(for: .milliseconds(1500))
        let registers = registrar.registers.withLock { $0 }
        #expect(registers.count == 2)
        #expect(registers.first?.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.localPort)>"])
        #expect(registers.last?.values(SIPHeaderName.contact)
                == ["<sip:gate@198.51.100.7:40000>", "<sip:gate@127.0.0.1:\(agent.localPort)>;expires=0"])
        #expect(try registers.last?.topVia().host == "127.0.0.1")
        await stop(agent, registrar)
    }

    @Test("contact_rewrite = false: the registrar's view is not registered")
    func rewriteOff() async throws {
        let registrar = try StampingRegistrar()
        registrar.stamp.withLock { $0 = ("198.51.100.7", 40_000) }
        let agent = Self.agent(registrar, rewrite: false)
        agent.start()
        try await registrar.serve(for: .seconds(5)) { registrar.registerCount >= 1 }
        try await registrar.serve(for: .milliseconds(1500))
        #expect(registrar.registerCount == 1)
        #expect(registrar.lastRegister?.values(SIPHeaderName.contact) == ["<sip:gate@127.0.0.1:\(agent.localPort)>"])
        await stop(agent, registrar)
    }

    @Test("addressesChanged with the same local address sends nothing; with another one, a REGISTER at once")
    func addressesChanged() async throws {
        let registrar = try StampingRegistrar()
        let route = Route()
        let agent = Self.agent(registrar, route: route)
        agent.start()
        try await registrar.serve(for: .seconds(5)) { registrar.registerCount >= 1 }
        agent.addressesChanged()
        try await registrar.serve(for: .seconds(1))
        #expect(registrar.registerCount == 1)

        route.host.withLock { $0 = "127.0.0.2" }
        let changed = ContinuousClock.now
        agent.addressesChanged()
        try await registrar.serve(for: .seconds(5)) { registrar.registerCount >= 2 }
        let took = ContinuousClock.now - changed
        let moved = try #require(registrar.lastRegister)
        #expect(registrar.registerCount == 2)
        #expect(took < .seconds(5))
        #expect(moved.values(SIPHeaderName.contact)
                == ["<sip:gate@127.0.0.2:\(agent.localPort)>", "<sip:gate@127.0.0.1:\(agent.localPort)>;expires=0"])
        #expect(try moved.topVia().host == "127.0.0.2")
        await stop(agent, registrar)
    }

    /// Stops the agent while the registrar answers its unregister.
    private func stop(_ agent: SIPUserAgent, _ registrar: StampingRegistrar) async {
        async let stopped: Void = agent.stop()
        try? await registrar.serve(for: .seconds(3)) { registrar.lastRegister?.values(SIPHeaderName.expires) == ["0"] }
        await stopped
    }
}
