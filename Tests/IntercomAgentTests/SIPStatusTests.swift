import IntercomAgent
import SIPTransport
import Testing

/// How the SIP registration shows on `/health`, the STATUS line and `/metrics` (issue #18).
@Suite struct SIPStatusTests {
    @Test func withoutSIPNothingIsShown() async {
        let status = AgentStatusBoard(title: "Gate")
        await status.setRegistered(true)
        let snapshot = await status.snapshot
        #expect(snapshot.sip == nil && snapshot.warnings == [] && !snapshot.line.contains("SIP"))
        let text = String(decoding: AgentMetrics().exposition(status: snapshot, temperatureCelsius: nil), as: UTF8.self)
        #expect(!text.contains("intercom_sip_registered"), "\(text)")
    }

    @Test func anUnregisteredDeviceIsAWarningInTheLineAndTheMetric() async {
        let status = AgentStatusBoard(title: "Gate")
        let metrics = AgentMetrics()
        await status.setRegistered(true)
        for state: SIPRegistrationState in [.registering, .authFailed("wrong password"), .unreachable("no answer"), .refused("404 Not Found")] {
            await status.setSIP(state)
            let snapshot = await status.snapshot
            #expect(snapshot.warnings == ["sip_unregistered"], "\(state)")
            #expect(snapshot.line.hasSuffix(", SIP \(state.word))"), "\(snapshot.line)")
            let text = String(decoding: metrics.exposition(status: snapshot, temperatureCelsius: nil), as: UTF8.self)
            #expect(text.contains("intercom_sip_registered 0"), "\(text)")
        }
        await status.setSIP(.registered(expires: 600))
        let snapshot = await status.snapshot
        #expect(snapshot.warnings == [])
        #expect(snapshot.line == "idle, Gate (polling for calls, 0 calls, SIP registered)",
                "\(snapshot.line)")
        let text = String(decoding: metrics.exposition(status: snapshot, temperatureCelsius: nil), as: UTF8.self)
        #expect(text.contains("intercom_sip_registered 1"), "\(text)")
    }

    @Test func anOfflineDeviceStillSaysItsSIPState() async {
        let status = AgentStatusBoard(title: "Gate")
        await status.setSIP(.registered(expires: 600))
        #expect(await status.line == "offline, Gate (backend unreachable, SIP registered)")
    }
}
