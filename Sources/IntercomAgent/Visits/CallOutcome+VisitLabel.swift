import CallCore

extension CallOutcome {
    /// The `outcome` of a `CallLog` row (issue #19), in a visitor log's words: `answered`, `missed` (nobody
    /// answered, or the caller gave up), `declined`, `busy` or `failed`. Coarser than `metricLabel`: an
    /// owner reading the log asks "did anyone talk to them", not which timer fired.
    public var visitLabel: String {
        switch self {
        case .answered: "answered"
        case .failed: "failed"
        case .unanswered(let cause):
            switch cause {
            case .ringTimeout, .expired, .remoteLeft, .cancelled, .shutdown: "missed"
            case .remoteBye(.busy), .busy: "busy"
            case .remoteBye(.declined), .hangupButton, .notAllowed, .doNotDisturb: "declined"
            case .remoteBye: "missed"
            case .deviceFault, .sessionError, .createFailed: "failed"
            }
        }
    }
}
