import CallCore
import Logging
import ParseWire
import SIPTransport
import Synchronization
import WebRTCCore

/// The media of a SIP call (issue #18): the INVITE's offer answered by `MediaService.sipAudioCall` (G.711 on
/// an RTP socket of its own, the microphone out, the speaker fed, the caller's keys in), and its video, when
/// it offers VP8, by a `SIPVideoStream` on a socket pair of its own (the encoder's frames out). The answer goes out
/// as the 200 OK through the dialog; media counts as up once it is sent (the ACK and the first packet are the
/// caller's business: a caller that sends no ACK ends the call by timer H, one that sends no audio is just
/// silent, as on a phone).
final class SIPCallMedia: CallMediaSession {
    private let dialog: SIPIncomingDialog
    private let media: MediaService
    private let logger: Logger
    private let audio = Mutex<SIPAudioCall?>(nil)
    private let video = Mutex<SIPVideoStream?>(nil)
    /// `[sip] srtp` for the answer.
    private let srtp: SIPSRTPMode
    /// `[sip] codecs` for the answer, in our order of preference.
    private let codecs: [SIPAudioCodec]
    /// `[sip] video`: false refuses every video section (port 0, as the audio answer writes it).
    private let answersVideo: Bool

    init(dialog: SIPIncomingDialog, media: MediaService, srtp: SIPSRTPMode, codecs: [SIPAudioCodec], video: Bool = true,
         logger: Logger) {
        self.dialog = dialog
        answersVideo = video
        self.media = media
        self.srtp = srtp
        self.codecs = codecs
        self.logger = logger
    }

    func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
               signal: @escaping @Sendable (SignalPayload) async -> Void,
               state: @escaping @Sendable (MediaState) -> Void) async throws {
        let invite = dialog.invite
        let call: SIPAudioCall
        do {
            let local = try SIPSocketAddress.localAddress(
                toward: try SIPSocketAddress.resolve(host: invite.sourceHost, port: 5060, datagram: true))
            call = try media.sipAudioCall(offer: invite.offer, localHost: local.host, codecs: codecs, srtp: srtp)
        } catch let error as SIPAudioAnswerError {
            await dialog.unusableOffer("\(error)")
            throw error
        } catch let error as SDPError {
            await dialog.unusableOffer("the offer does not parse: \(error)")
            throw error
        }
        audio.withLock { $0 = call }
        let (answer, videoStream) = videoAnswer(offer: invite.offer, audioAnswer: call.answer, host: call.local.host)
        video.withLock { $0 = videoStream }
        await signal(.answer(sdp: answer))
        let dialog = self.dialog, logger = self.logger, sessionID = dialog.sessionID
        call.start(onDigit: { key in dialog.key(key) },
                   onState: { audioState in logger.info("SIP audio: \(audioState)", metadata: ["session": "\(sessionID)"]) })
        videoStream?.start()
        state(.up)
    }

    /// The answer with VP8 video where the offer has some we can answer (`SIPVideoAnswerer`), and the video's
    /// stream; else the audio answer alone (the offer's video refused with port 0), and no stream.
    private func videoAnswer(offer: String, audioAnswer: String, host: String) -> (String, SIPVideoStream?) {
        guard answersVideo, let offered = try? SessionDescription(parsing: offer), SIPVideoAnswerer(port: 0, srtp: srtp).answer(offered) != nil,
              let answered = try? SessionDescription(parsing: audioAnswer)
        else { return (audioAnswer, nil) }
        do {
            let sockets = try SIPVideoStream.bindSockets(host: host)
            guard let chosen = SIPVideoAnswerer(port: sockets.rtp.local.port, srtp: srtp).answer(offered) else { return (audioAnswer, nil) }
            let stream = try SIPVideoStream(answer: chosen, sockets: sockets, media: media, logger: logger)
            return (SIPVideoAnswerer.splice(chosen, into: answered).serialized(), stream)
        } catch {
            logger.warning("SIP video refused, the call goes on with audio: \(error)", metadata: ["session": "\(dialog.sessionID)"])
            return (audioAnswer, nil)
        }
    }

    func remote(_ payload: SignalPayload) async {}

    func stop() async {
        if let stream = video.withLock({ $0.take() }) {
            await stream.stop()
            logger.notice("SIP video ended: \(stream.counters)", metadata: ["session": "\(dialog.sessionID)"])
        }
        guard let call = audio.withLock({ $0.take() }) else { return }
        await call.stop()
        logger.notice("SIP media ended: \(call.counters)", metadata: ["session": "\(dialog.sessionID)"])
    }
}
