import CSRTP

/// `srtp_init()` must run once per process before any session exists. A global `let` is initialised
/// lazily under `swift_once`, so concurrent first users are safe.
enum SRTPLibrary {
    private static let initStatus: UInt32 = srtp_init().rawValue

    static func ensureInitialized() throws(SRTPError) {
        if let error = SRTPError(call: "srtp_init", code: srtp_err_status_t(rawValue: initStatus)) { throw error }
    }
}
