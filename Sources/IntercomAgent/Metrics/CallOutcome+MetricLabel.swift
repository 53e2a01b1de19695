import CallCore

extension CallOutcome {
    /// The `outcome` label of `intercom_calls_total`: a few stable words a dashboard can group by, in the
    /// terms a phone uses (no answer, declined, busy) rather than the machine's causes.
    public var metricLabel: String {
        switch self {
        case .answered: "answered"
        case .failed: "failed"
        case .unanswered(let cause):
            switch cause {
            case .ringTimeout: "no_answer"
            case .hangupButton, .notAllowed, .doNotDisturb: "declined"
            case .busy: "busy"
            case .expired: "expired"
            case .remoteBye, .remoteLeft: "caller_gave_up"
            case .cancelled: "cancelled"
            case .deviceFault: "device_fault"
            case .sessionError, .createFailed: "failed"
            case .shutdown: "shutdown"
            }
        }
    }

    /// The `reason` label of a failed call (`media_timeout`, `ice_failed`, `dtls_failed`, `signaling_lost`,
    /// `ended_before_media`); nil for every other outcome, whose series carry no `reason`.
    public var failureReasonLabel: String? {
        if case .failed(let reason, _) = self { return reason.rawValue }
        return nil
    }
}
