import CSRTP

/// libsrtp2's `srtp_err_status_t`, one case per non-ok value, so errors print the library's own names.
public enum SRTPStatus: UInt32, Sendable, Equatable {
    case fail = 1, badParam, allocFail, deallocFail, initFail, terminus, authFail, cipherFail, replayFail
    case replayOld, algoFail, noSuchOp, noCtx, cantCheck, keyExpired, socketErr, signalErr, nonceBad
    case readFail, writeFail, parseErr, encodeErr, semaphoreErr, pfkeyErr, badMKI, pktIdxOld, pktIdxAdv

    /// The C enumerator name, e.g. "srtp_err_status_replay_fail".
    public var name: String {
        let names = [
            "fail", "bad_param", "alloc_fail", "dealloc_fail", "init_fail", "terminus", "auth_fail", "cipher_fail",
            "replay_fail", "replay_old", "algo_fail", "no_such_op", "no_ctx", "cant_check", "key_expired",
            "socket_err", "signal_err", "nonce_bad", "read_fail", "write_fail", "parse_err", "encode_err",
            "semaphore_err", "pfkey_err", "bad_mki", "pkt_idx_old", "pkt_idx_adv",
        ]
        return "srtp_err_status_" + names[Int(rawValue) - 1]
    }
}

/// A failed libsrtp2 call: which function and the status it returned.
public struct SRTPError: Error, Equatable, Sendable, CustomStringConvertible {
    public let call: String
    public let status: SRTPStatus

    public init(call: String, status: SRTPStatus) {
        self.call = call
        self.status = status
    }

    /// Nil for `srtp_err_status_ok`; unknown future codes map to `.fail`.
    init?(call: String, code: srtp_err_status_t) {
        guard code != srtp_err_status_ok else { return nil }
        self.init(call: call, status: SRTPStatus(rawValue: code.rawValue) ?? .fail)
    }

    public var description: String { "\(call) failed: \(status.name)" }
}
