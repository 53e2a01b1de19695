import SIPTransport

/// Places the call button's SIP calls (issue #18, `[call] target = "sip:…"`) for the coordinator: the INVITE
/// goes through the registrar, so the call's RTP is offered on the local address that reaches it.
struct SIPDialer: Sendable {
    let calls: SIPCalls
    let agent: SIPUserAgent
    let registrarHost: String
    let registrarPort: Int

    /// A dialog ready to send its INVITE once joined, or why there is none. May wait for a DNS lookup of
    /// the registrar (run it off the coordinator).
    func dial(_ uri: String) -> OutgoingCallPlacer.Result {
        let localHost: String
        do {
            let registrar = try SIPSocketAddress.resolve(host: registrarHost, port: registrarPort, datagram: true)
            localHost = try SIPSocketAddress.localAddress(toward: registrar).host
        } catch {
            return .failed(reason: "no route to the SIP registrar \(registrarHost):\(registrarPort): \(error)")
        }
        return calls.dial(uri, localHost: localHost, agent: agent)
    }
}
