import SIPCore
import Testing

@Suite("Contact rewrite from Via received/rport (RFC 3581)")
struct ContactRewriteTests {
    let contact = try! SIPURI("sip:gate@192.168.1.2:5060")

    @Test("another address is registered once; the same address again, or our own, is left alone")
    func oncePerAddress() throws {
        var rewrite = ContactRewrite(enabled: true)
        let first = rewrite.decide(contact: contact, observedHost: "203.0.113.2", observedPort: 40123)
        let public1 = try #require(first)
        #expect(public1.serialized == "sip:gate@203.0.113.2:40123")
        // The registrar reports the rewritten address: it is the Contact now, nothing to do.
        let confirmed = rewrite.decide(contact: public1, observedHost: "203.0.113.2", observedPort: 40123)
        #expect(confirmed == nil)
        // A registrar that keeps reporting it while we still have the old Contact does not get a loop.
        let again = rewrite.decide(contact: contact, observedHost: "203.0.113.2", observedPort: 40123)
        #expect(again == nil)
        // A new NAT mapping is a new address.
        let remapped = rewrite.decide(contact: public1, observedHost: "203.0.113.2", observedPort: 40999)
        #expect(remapped?.port == 40999)
        // Not behind a NAT: the registrar saw the Contact's own address (rport only).
        var plain = ContactRewrite(enabled: true)
        let own = plain.decide(contact: contact, observedHost: "192.168.1.2", observedPort: 5060)
        #expect(own == nil && plain.tried.isEmpty)
    }

    @Test("received without rport keeps the Contact's port; IPv6 gets brackets; reset forgets; off never rewrites")
    func details() {
        var rewrite = ContactRewrite(enabled: true)
        let hostOnly = rewrite.decide(contact: contact, observedHost: "203.0.113.2", observedPort: nil)
        #expect(hostOnly?.serialized == "sip:gate@203.0.113.2:5060")
        let v6 = rewrite.decide(contact: contact, observedHost: "2001:db8::7", observedPort: 5062)
        #expect(v6?.serialized == "sip:gate@[2001:db8::7]:5062")
        rewrite.reset()
        let afterReset = rewrite.decide(contact: contact, observedHost: "203.0.113.2", observedPort: nil)
        #expect(afterReset != nil)
        var off = ContactRewrite(enabled: false)
        let disabled = off.decide(contact: contact, observedHost: "203.0.113.2", observedPort: 40123)
        #expect(disabled == nil)
    }
}
