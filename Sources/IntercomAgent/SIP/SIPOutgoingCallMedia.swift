import CallCore
import Logging
import ParseWire
import Synchronization
import WebRTCCore

/// The media of a SIP call the device placed (issue #18): the INVITE already carried `dialog.offer` (audio,
/// and VP8 video beside it); the callee's answer arrives as the room's "offer" (`SIPOutgoingDialog`), is read by
/// `SIPAudioCall.accept(answer:)`, and the call's audio starts, with its video where the callee accepted it.
/// Media counts as up at once (the callee's first packet is its business; a silent callee is just silent, as on
/// a phone).
final class SIPOutgoingCallMedia: CallMediaSession {
    private let dialog: SIPOutgoingDialog
    private let logger: Logger
    private let started = Mutex(false)
    private let video = Mutex<SIPVideoStream?>(nil)
    private let media: MediaService
    /// Keys for the callee (an extension behind a PBX's auto attendant), sent `postDialLead` after the answer.
    private let postDialDigits: String
    /// Long enough for an auto attendant to start listening after it picked up.
    static let postDialLead = Duration.seconds(1)

    init(dialog: SIPOutgoingDialog, media: MediaService, postDialDigits: String = "", logger: Logger) {
        self.dialog = dialog
        self.media = media
        self.postDialDigits = postDialDigits
        self.logger = logger
    }

    func start(plan: MediaPlan, iceServers: [IceServer], early: [SignalPayload],
               signal: @escaping @Sendable (SignalPayload) async -> Void,
               state: @escaping @Sendable (MediaState) -> Void) async throws {
        let call = dialog.audio
        guard let answer = early.lazy.compactMap({ payload -> String? in
            if case .offer(let sdp) = payload { return sdp }
            return nil
        }).first else {
            await dialog.unusableAnswer("\(SIPOutgoingMediaError.noAnswer)")
            throw SIPOutgoingMediaError.noAnswer
        }
        do {
            try call.accept(answer: answer)
        } catch {
            await dialog.unusableAnswer("\(error)")
            throw error
        }
        started.withLock { $0 = true }
        let videoStream = acceptedVideo(answer)
        video.withLock { $0 = videoStream }
        let dialog = self.dialog, logger = self.logger, sessionID = dialog.sessionID
        call.start(onDigit: { key in dialog.key(key) },
                   onState: { audioState in logger.info("SIP audio: \(audioState)", metadata: ["session": "\(sessionID)"]) })
        if !postDialDigits.isEmpty { call.send(keys: postDialDigits, lead: Self.postDialLead) }
        videoStream?.start()
        state(.up)
    }

    /// The video the callee accepted (`SIPVideoOfferer.accept`), on the offer's video sockets; nil when it
    /// refused it (a phone without a camera answers port 0) or nothing was offered.
    private func acceptedVideo(_ answer: String) -> SIPVideoStream? {
        guard let offered = dialog.offer.video, let session = try? SessionDescription(parsing: answer),
              let chosen = offered.offerer.accept(session, index: offered.index)
        else { return nil }
        do {
            return try SIPVideoStream(answer: chosen, sockets: offered.sockets, media: media, logger: logger)
        } catch {
            logger.warning("SIP video not started, the call goes on with audio: \(error)", metadata: ["session": "\(dialog.sessionID)"])
            return nil
        }
    }

    func remote(_ payload: SignalPayload) async {}

    func stop() async {
        if let stream = video.withLock({ $0.take() }) {
            await stream.stop()
            logger.notice("SIP video ended: \(stream.counters)", metadata: ["session": "\(dialog.sessionID)"])
        }
        let call = dialog.audio
        await call.stop()
        guard started.withLock({ wasStarted in
            defer { wasStarted = false }
            return wasStarted
        }) else { return }
        logger.notice("SIP media ended: \(call.counters)", metadata: ["session": "\(dialog.sessionID)"])
    }
}

/// Why a placed SIP call's media did not start.
enum SIPOutgoingMediaError: Error, CustomStringConvertible {
    case noAnswer

    var description: String { "the callee's 2xx carried no SDP answer (RFC 3264 §5: an offer in the INVITE needs one)" }
}
