import Logging
import WebRTCCore

/// What the device offers in a SIP call it places (issue #18): the audio call, whose offer it is, and beside it
/// VP8 video on a port pair of its own (`SIPVideoOfferer`). Without the video sockets the offer is audio only.
struct SIPOutgoingOffer: Sendable {
    struct Video: Sendable {
        let offerer: SIPVideoOfferer
        /// The video section's m= line index in the offer (and so in the answer).
        let index: Int
        let sockets: (rtp: RTPSocket, rtcp: RTPSocket)
    }

    let audio: SIPAudioCall
    let video: Video?
    /// The INVITE's SDP.
    let sdp: String

    /// `video` false (`[sip] video`): the offer is the audio call's alone.
    init(audio: SIPAudioCall, video offersVideo: Bool = true, logger: Logger) {
        self.audio = audio
        guard offersVideo, let audioOffer = try? SessionDescription(parsing: audio.offer) else {
            (video, sdp) = (nil, audio.offer)
            return
        }
        do {
            let sockets = try SIPVideoStream.bindSockets(host: audio.local.host)
            guard let offerer = SIPVideoOfferer(port: sockets.rtp.local.port, audioOffer: audioOffer) else {
                (video, sdp) = (nil, audio.offer)
                return
            }
            video = Video(offerer: offerer, index: audioOffer.media.count, sockets: sockets)
            sdp = offerer.offer(adding: audioOffer).serialized()
        } catch {
            logger.warning("SIP call offered without video: \(error)")
            (video, sdp) = (nil, audio.offer)
        }
    }
}
