import Testing
@testable import IntercomAgent

/// What the INVITE of a call the device places offers: audio and VP8 video beside it, or (`[sip] video = false`)
/// the audio alone.
@Suite("SIP outgoing offer")
struct SIPOutgoingOfferTests {
    @Test("VP8 beside the audio by default; audio only with video off")
    func videoSwitch() async throws {
        let withVideo = SIPOutgoingOffer(
            audio: try SIPAudioCall(localHost: "127.0.0.1", endpoints: SIPAudioCallTests.ScriptedEndpoints(), logger: SIPAudioCallTests.logger),
            logger: SIPAudioCallTests.logger)
        #expect(withVideo.sdp.contains("m=audio ") && withVideo.sdp.contains("m=video ") && withVideo.sdp.contains(" VP8/90000"))
        #expect(withVideo.video?.index == 1)
        let audioOnly = SIPOutgoingOffer(
            audio: try SIPAudioCall(localHost: "127.0.0.1", endpoints: SIPAudioCallTests.ScriptedEndpoints(), logger: SIPAudioCallTests.logger),
            video: false, logger: SIPAudioCallTests.logger)
        #expect(audioOnly.sdp == audioOnly.audio.offer && !audioOnly.sdp.contains("m=video"))
        #expect(audioOnly.video == nil)
        await withVideo.audio.stop()
        await audioOnly.audio.stop()
        withVideo.video?.sockets.rtp.close()
        withVideo.video?.sockets.rtcp.close()
    }
}
