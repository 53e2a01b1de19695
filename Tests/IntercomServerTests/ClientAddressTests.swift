import Testing
@testable import IntercomServer

/// Issue #14 (7): forwarding headers count only from trusted proxies; the master key and the rate limiter's
/// loopback exemption follow the client so derived.
@Suite struct ClientAddressTests {
    private static let proxies = [IPNetwork("10.0.0.0/8")!, IPNetwork("::1")!]
    private static let loopback = ServerConfiguration().masterKeyNetworks

    @Test func networksMatchTheirBlocks() throws {
        let block = try #require(IPNetwork("192.168.4.0/22"))
        #expect(block.contains("192.168.7.255"))
        #expect(!block.contains("192.168.8.0"))
        #expect(block.contains("::ffff:192.168.5.1"))
        #expect(try #require(IPNetwork("2001:db8::/32")).contains("2001:db8:1::7"))
        #expect(!(try #require(IPNetwork("2001:db8::/32")).contains("2001:db9::1")))
        #expect(IPNetwork("10.0.0.0/33") == nil)
        #expect(IPNetwork("example.org") == nil)
        #expect(Self.loopback.containsAddress("127.3.4.5"))
        #expect(Self.loopback.containsAddress("::1"))
    }

    @Test func withoutForwardingHeadersThePeerIsTheClient() {
        let client = ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: nil, forwarded: nil, trustedProxies: [])
        #expect(client == ClientAddress(address: "127.0.0.1", forwardedByUntrustedPeer: false))
        #expect(client.mayUseMasterKey(networks: Self.loopback))
        #expect(client.isLocal)
    }

    @Test func aForwardingHeaderFromAnUntrustedPeerLosesLoopbackPrivileges() {
        let client = ClientAddress.resolve(peer: "127.0.0.1", forwardedFor: "203.0.113.5", forwarded: nil,
                                           trustedProxies: [])
        #expect(client.address == "127.0.0.1")
        #expect(!client.mayUseMasterKey(networks: Self.loopback))
        #expect(!client.isLocal)
    }

    @Test func aTrustedProxyNamesTheRightMostUntrustedHop() {
        // The client forged the first entry; the proxy chain appended the real one.
        let client = ClientAddress.resolve(peer: "10.1.2.3", forwardedFor: "127.0.0.1, 198.51.100.7, 10.9.9.9",
                                           forwarded: nil, trustedProxies: Self.proxies)
        #expect(client == ClientAddress(address: "198.51.100.7", forwardedByUntrustedPeer: false))
        #expect(!client.mayUseMasterKey(networks: Self.loopback))
        #expect(!client.isLocal)
    }

    @Test func theForwardedHeaderIsUnderstoodToo() {
        let client = ClientAddress.resolve(peer: "::1", forwardedFor: nil,
                                           forwarded: #"for="[2001:db8::9]:4711";proto=https"#, trustedProxies: Self.proxies)
        #expect(client.address == "2001:db8::9")
        let local = ClientAddress.resolve(peer: "10.0.0.1", forwardedFor: nil, forwarded: "for=127.0.0.1",
                                          trustedProxies: Self.proxies)
        #expect(local.mayUseMasterKey(networks: Self.loopback))
    }

    @Test func theRateLimiterCountsForwardedClients() {
        var configuration = RateLimitConfiguration(requestsPerSecond: 0.001, burst: 1)
        configuration.enabled = true
        let limiter = RateLimiter(configuration: configuration, clock: .system)
        let forwarded = ClientAddress(address: "127.0.0.1", forwardedByUntrustedPeer: true)
        #expect(limiter.admit(client: forwarded, isMaster: false))
        #expect(!limiter.admit(client: forwarded, isMaster: false))
        #expect(limiter.admit(client: ClientAddress(address: "127.0.0.1", forwardedByUntrustedPeer: false), isMaster: false))
    }
}
