import SIPCore

/// NAT keepalive while registered (RFC 5626 §3.5.1, §4.4): CRLF CRLF on the TCP connection; OPTIONS to the
/// registrar over UDP, whose answer (any status) also proves the registrar is still there. No answer within
/// the keepalive interval means the registrar is gone: the registration is reported unreachable and
/// re-REGISTERed with backoff, so a registrar that restarted without its location table learns us again.
extension SIPUserAgentLoop {
    func sendKeepAlive() {
        guard !stopping, registration != nil else { return }
        deadlines.start(.keepAlive, at: now() + settings.keepAlive)
        if reliable {
            if !sendBytesToRegistrar(Array("\r\n\r\n".utf8)) { keepAliveFailed("the connection failed") }
            return
        }
        startClient(keepAliveRequest(), purpose: .keepAlive, timers: keepAliveTimers)
    }

    /// Timer F (64*T1) fits in one keepalive interval, so an unanswered OPTIONS is noticed before the next.
    var keepAliveTimers: SIPTimerValues {
        let t1 = min(max(settings.keepAlive / 64, .milliseconds(10)), .milliseconds(500))
        return SIPTimerValues(t1: t1, t2: min(.seconds(4), max(t1, settings.keepAlive / 4)), t4: .seconds(5))
    }

    func keepAliveFailed(_ reason: String) {
        guard !stopping, let registration, case .registered = registration.status else { return }
        logger.warning("SIP keepalive to the registrar failed", metadata: ["reason": "\(reason)"])
        perform(registrationEvent: .timedOut)
    }

    private func keepAliveRequest() -> SIPMessage {
        keepAliveSequence += 1
        let config = registration?.config
        let target = SIPURI(host: settings.registrarHost, port: settings.registrarPort == 5060 ? nil : UInt16(settings.registrarPort))
        let via = Via(transport: settings.transport.rawValue, host: config?.localHost ?? "0.0.0.0", port: config?.localPort,
                      parameters: [SIPParameter("branch", Via.magicCookie + token()), SIPParameter("rport")])
        let from = NameAddress(uri: SIPURI(user: settings.user, host: settings.registrarHost), parameters: [SIPParameter("tag", token(10))])
        return SIPMessage(startLine: .request(method: .options, uri: target), headers: [
            SIPHeader(SIPHeaderName.via, via.serialized),
            SIPHeader(SIPHeaderName.maxForwards, "70"),
            SIPHeader(SIPHeaderName.from, from.serialized),
            SIPHeader(SIPHeaderName.to, NameAddress(uri: target).serialized),
            SIPHeader(SIPHeaderName.callID, token(24)),
            SIPHeader(SIPHeaderName.cseq, CSeq(keepAliveSequence, .options).serialized),
        ])
    }
}
