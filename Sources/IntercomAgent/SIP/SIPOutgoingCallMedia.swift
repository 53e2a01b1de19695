import CallCore
import Logging
import ParseWire
import Synchronization
import WebRTCCore

/// The media of a SIP call the device placed (issue #18): the INVITE already carried the offer of
/// `dialog.audio`; the callee's answer arrives as the room's "offer" (`SIPOutgoingDialog`), is read by
/// `SIPAudioCall.accept(answer:)`, and the call's audio starts. Media counts as up at once (the callee's
/// first packet is its business; a silent callee is just silent, as on a phone).
final class SIPOutgoingCallMedia: CallMediaSession {
    private let dialog: SIPOutgoingDialog
    private let logger: Logger
    private let started = Mutex(false)

    init(dialog: SIPOutgoingDialog, logger: Logger) {
        self.dialog = dialog
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
        let dialog = self.dialog, logger = self.logger, sessionID = dialog.sessionID
        call.start(onDigit: { key in dialog.key(key) },
                   onState: { audioState in logger.info("SIP audio: \(audioState)", metadata: ["session": "\(sessionID)"]) })
        state(.up)
    }

    func remote(_ payload: SignalPayload) async {}

    func stop() async {
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
