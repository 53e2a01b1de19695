import Media

/// What a SIP call's video takes from the media pipeline: the encoded frames every peer shares, keyframes on
/// request, and the demand that keeps the camera and encoder running (`MediaService`; a fake in tests).
protocol SIPVideoSource: Sendable {
    var video: EncodedFrameBroadcaster { get }
    func requestKeyframe()
    func setDemand(_ holder: String, wanted: Bool)
}

extension MediaService: SIPVideoSource {}
