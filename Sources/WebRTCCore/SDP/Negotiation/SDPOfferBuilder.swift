/// Builds the device's own offer (RFC 8829 JSEP §5.2): one audio and one video section, both bundled,
/// `a=setup:actpass` (RFC 8842 §5.2), rtcp-mux and reduced-size RTCP.
public enum SDPOfferBuilder {
    public static let audioMid = "0"
    public static let videoMid = "1"

    public static func offer(
        local: SDPLocalEndpoint, capabilities: MediaCapabilities = .intercom()
    ) -> SessionDescription {
        let transport = local.transport(setup: .actpass, iceOptions: capabilities.iceOptions)
        let audio = local.section(
            kind: .audio, mid: audioMid, format: capabilities.opus, direction: capabilities.audioDirection,
            transport: transport, headerExtensions: capabilities.headerExtensions.filter { $0.applies(to: .audio) },
            reducedSize: true)
        let video = local.section(
            kind: .video, mid: videoMid, format: capabilities.vp8, direction: capabilities.videoDirection,
            transport: transport, headerExtensions: capabilities.headerExtensions.filter { $0.applies(to: .video) },
            reducedSize: true)
        return SessionDescription(
            origin: local.origin, groups: [.bundle([audioMid, videoMid])], msidSemantic: "WMS \(local.streamID)",
            media: [audio, video])
    }
}
