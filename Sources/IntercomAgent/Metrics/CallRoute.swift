/// How a call reached the device or its callee: through the backend's signaling and WebRTC, or over SIP
/// (issue #18). The `route` label of `intercom_calls_total`.
enum CallRoute: String, Sendable {
    case webrtc, sip

    /// SIP calls' sessions are named `sip:<Call-ID>` (`SIPIncomingDialog`); the backend's session IDs are
    /// alphanumeric and never contain a colon.
    init(sessionID: String?) {
        self = sessionID?.hasPrefix("sip:") == true ? .sip : .webrtc
    }
}
