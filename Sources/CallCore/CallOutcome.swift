/// How a call ended: every call gets exactly one, logged with `logCallOutcome`.
public enum CallOutcome: Equatable, Sendable {
    /// The call was accepted (by this device, or by the callee of an outgoing call), the partner's media
    /// flowed, then the call ended.
    case answered(ended: CallEndCause)
    /// The call was accepted but the partner's media never flowed: `reason` says why, `ended` what ended it.
    case failed(CallFailureReason, ended: CallEndCause)
    /// The call was never accepted.
    case unanswered(UnansweredCause)

    /// Whether the call was accepted.
    public var wasAnswered: Bool {
        switch self {
        case .answered, .failed: true
        case .unanswered: false
        }
    }
}

/// Why an accepted call never had media from its partner (the `reason` label of a failed call).
public enum CallFailureReason: String, Equatable, Sendable {
    /// Nothing connected within `CallPolicy.mediaTimeout`, and the media layer named no cause.
    case mediaTimeout = "media_timeout"
    /// ICE found no working candidate pair.
    case iceFailed = "ice_failed"
    /// ICE connected but the DTLS handshake failed.
    case dtlsFailed = "dtls_failed"
    /// The signaling room failed before media flowed.
    case signalingLost = "signaling_lost"
    /// Either side ended the call (hangup, `bye`, leaving, a device fault) before media flowed.
    case endedBeforeMedia = "ended_before_media"
}

/// What ended an accepted call.
public enum CallEndCause: Equatable, Sendable {
    /// The hangup button.
    case localHangup
    /// The partner sent `bye`.
    case remoteBye(ByeReason)
    /// The partner left the signaling room without `bye`.
    case remoteLeft
    /// `CallPolicy.maxDuration` elapsed.
    case maxDuration
    /// No media for `CallPolicy.mediaTimeout`.
    case mediaTimeout
    /// A required device failed.
    case deviceFault
    /// The signaling room failed.
    case sessionError(String)
    /// The agent stopped (SIGTERM) during the call.
    case shutdown
}

/// Why a call was never accepted.
public enum UnansweredCause: Equatable, Sendable {
    /// Hangup button while ringing.
    case hangupButton
    /// The caller is not on the allow-list.
    case notAllowed
    /// The device was already ringing or in a call.
    case busy
    /// Do-not-disturb was on (or quiet hours refuse calls), or it was switched on while ringing.
    case doNotDisturb
    /// A required device is missing.
    case deviceFault
    /// The row arrived expired, or expired while ringing.
    case expired
    /// Nobody answered within `CallPolicy.ringTimeout`.
    case ringTimeout
    /// The other side sent `bye` first (caller gave up, or callee refused).
    case remoteBye(ByeReason)
    /// The other side left the room first.
    case remoteLeft
    /// Hangup button while our outgoing call was still ringing.
    case cancelled
    /// The signaling room failed.
    case sessionError(String)
    /// The outgoing row could not be created.
    case createFailed(String)
    /// The agent stopped (SIGTERM) while the call rang.
    case shutdown
}
