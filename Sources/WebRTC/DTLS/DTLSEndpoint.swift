import COpenSSLShims
import COpenSSL

/// The DTLS-SRTP handshake of one peer connection as a sans-IO engine: datagrams and timeouts in,
/// datagrams (`pollTransmit`) and events (`pollEvent`) out. No sockets: the ICE layer carries the bytes.
///
/// Order of operations (Janus dtls.c, RFC 5763 §5): a server enters accept state at once so an early
/// ClientHello is not dropped; a client starts its handshake on `start(now:)`, which the owner calls when
/// ICE connects. When the handshake finishes, the peer certificate's SHA-256 must equal the SDP
/// fingerprint, then the negotiated SRTP profile's keys are exported (RFC 5764 §4.2).
///
/// Retransmission timing: OpenSSL 3.0 keeps its DTLS timer on the wall clock (`gettimeofday` inside
/// `DTLSv1_get_timeout`), so `nextTimeout` is real time left; `now` only drives the handshake deadline.
///
/// Single owner, not Sendable: OpenSSL objects are not safe for concurrent use.
public final class DTLSEndpoint {
    public static let defaultMTU = 1200
    /// Janus gives up after 20 s.
    public static let defaultHandshakeTimeout: Duration = .seconds(20)

    private enum State: Equatable {
        case idle, handshaking, connected, closed, failed
    }

    public let role: DTLSRole
    public let certificate: DTLSCertificate
    public let expectedRemoteFingerprint: String
    private let handshakeTimeout: Duration
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// Owned by `ssl` (SSL_set_bio); kept to feed datagrams in and drain datagrams out.
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private var state = State.idle
    private var handshakeDeadline: Duration?
    private var events: [DTLSEvent] = []

    /// - Parameters:
    ///   - srtpProfiles: offered use_srtp profiles, preferred first (tests force one at a time).
    ///   - mtu: largest datagram OpenSSL may write.
    ///   - initialRetransmitTimeout: first retransmission delay, doubled per retry up to 60 s (RFC 6347 §4.2.4.1).
    public init(
        role: DTLSRole,
        certificate: DTLSCertificate,
        expectedRemoteFingerprint: String,
        srtpProfiles: [SRTPProfile] = SRTPProfile.allCases,
        mtu: Int = DTLSEndpoint.defaultMTU,
        initialRetransmitTimeout: Duration = .seconds(1),
        handshakeTimeout: Duration = DTLSEndpoint.defaultHandshakeTimeout
    ) throws(DTLSError) {
        self.role = role
        self.certificate = certificate
        self.expectedRemoteFingerprint = DTLSFingerprint.normalized(expectedRemoteFingerprint)
        self.handshakeTimeout = handshakeTimeout
        context = try DTLSContext.make(certificate: certificate, profiles: srtpProfiles)
        guard let ssl = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .setupFailed(call: "SSL_new", reason: OpenSSLErrorQueue.drain())
        }
        guard let readBIO = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(call: "BIO_new", reason: OpenSSLErrorQueue.drain())
        }
        guard let writeBIO = CIntercomShims_datagram_bio_new(mtu) else {
            BIO_free(readBIO)
            SSL_free(ssl)
            SSL_CTX_free(context)
            throw .setupFailed(call: "BIO_meth_new", reason: OpenSSLErrorQueue.drain())
        }
        // An empty memory BIO must read as "retry later", not as end of file.
        CIntercomShims_BIO_set_mem_eof_return(readBIO, -1)
        SSL_set_bio(ssl, readBIO, writeBIO)
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
        SSL_set_options(ssl, CIntercomShims_SSL_OP_NO_QUERY_MTU())
        let initialMicroseconds = UInt32(clamping: initialRetransmitTimeout.wholeMicrosecondsForTimer)
        // Every stored property is set from here on, so a throw runs deinit, which frees ssl and context.
        guard CIntercomShims_DTLS_set_link_mtu(ssl, mtu) == 1 else {
            throw .setupFailed(call: "DTLS_set_link_mtu", reason: "MTU \(mtu) rejected: " + OpenSSLErrorQueue.drain())
        }
        guard CIntercomShims_DTLS_set_initial_timeout(ssl, initialMicroseconds) == 1 else {
            throw .setupFailed(call: "DTLS_set_timer_cb", reason: OpenSSLErrorQueue.drain())
        }
        switch role {
        case .client: SSL_set_connect_state(ssl)
        case .server: SSL_set_accept_state(ssl)
        }
    }

    deinit {
        SSL_free(ssl)  // frees both BIOs
        SSL_CTX_free(context)
    }

    /// Starts the handshake clock; a client sends its ClientHello now (call it when ICE connects).
    public func start(now: Duration) {
        guard state == .idle else { return }
        state = .handshaking
        handshakeDeadline = now + handshakeTimeout
        driveHandshake()
    }

    /// One DTLS datagram from the peer (RFC 7983 first byte 20–63).
    public func handleDatagram(_ datagram: [UInt8], now: Duration) {
        switch state {
        case .closed, .failed: return
        case .idle:
            // A server may receive the ClientHello before its owner called start; a DTLS server never
            // speaks first, so anything reaching an idle client is stray and dropped.
            guard role == .server else { return }
            start(now: now)
        case .handshaking, .connected: break
        }
        guard !datagram.isEmpty, datagram.count <= Int(Int32.max) else { return }
        _ = datagram.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        if state == .handshaking {
            if checkDeadline(now: now) { return }
            driveHandshake()
        }
        if state == .connected { readApplicationData() }
    }

    /// Call when `nextTimeout` has elapsed: retransmits the last flight if OpenSSL's timer expired.
    public func handleTimeout(now: Duration) {
        guard state == .handshaking, !checkDeadline(now: now) else { return }
        ERR_clear_error()
        if CIntercomShims_DTLSv1_handle_timeout(ssl) < 0 {
            fail(.handshakeFailed(reason: "DTLSv1_handle_timeout: " + OpenSSLErrorQueue.drain()))
        }
    }

    /// Time until `handleTimeout` should run, nil when no retransmission timer is running.
    public var nextTimeout: Duration? {
        guard state == .handshaking else { return nil }
        var microseconds = 0
        guard CIntercomShims_DTLSv1_get_timeout(ssl, &microseconds) == 1 else { return nil }
        return .microseconds(microseconds)
    }

    /// The negotiated protocol (`SSL_get_version`, e.g. "DTLSv1.2"), nil before the handshake finished.
    public var protocolVersion: String? {
        guard state == .connected, let name = SSL_get_version(ssl) else { return nil }
        return String(cString: name)
    }

    /// The next datagram to send to the peer, each exactly one `BIO_write` of OpenSSL.
    public func pollTransmit() -> [UInt8]? {
        let length = CIntercomShims_datagram_bio_next_length(writeBIO)
        guard length >= 0 else { return nil }
        var datagram = [UInt8](repeating: 0, count: length)
        let copied = datagram.withUnsafeMutableBytes {
            CIntercomShims_datagram_bio_pop(writeBIO, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), length)
        }
        return copied == length ? datagram : nil
    }

    /// The next event, oldest first.
    public func pollEvent() -> DTLSEvent? {
        events.isEmpty ? nil : events.removeFirst()
    }

    /// Encrypts application data for the peer (queued for `pollTransmit`).
    public func send(applicationData: [UInt8]) throws(DTLSError) {
        guard state == .connected else { throw .writeFailed(reason: "not connected") }
        guard !applicationData.isEmpty, applicationData.count <= Int(Int32.max) else {
            throw .writeFailed(reason: "empty or oversized payload")
        }
        ERR_clear_error()
        let written = applicationData.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        if written <= 0 { throw .writeFailed(reason: "SSL_write: " + OpenSSLErrorQueue.drain()) }
    }

    /// Hangs up: sends close_notify (Chrome tears down on it) and ignores everything afterwards.
    public func close() {
        guard state == .handshaking || state == .connected else {
            state = .closed
            return
        }
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        state = .closed
    }

    // MARK: - Driving OpenSSL

    private func checkDeadline(now: Duration) -> Bool {
        guard let handshakeDeadline, now >= handshakeDeadline else { return false }
        fail(.handshakeTimedOut)
        return true
    }

    private func driveHandshake() {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            finishHandshake()
            return
        }
        let error = SSL_get_error(ssl, result)
        if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return }
        fail(.handshakeFailed(reason: "SSL_do_handshake: " + OpenSSLErrorQueue.drain()))
    }

    private func finishHandshake() {
        guard let peer = SSL_get1_peer_certificate(ssl) else { return fail(.noPeerCertificate) }
        let actual = DTLSFingerprint.sha256(of: peer)
        X509_free(peer)
        guard let actual, actual == expectedRemoteFingerprint else {
            // Hang up: the peer already considers itself connected, close_notify tells it otherwise.
            ERR_clear_error()
            _ = SSL_shutdown(ssl)
            return fail(.fingerprintMismatch(expected: expectedRemoteFingerprint, actual: actual ?? "unreadable"))
        }
        guard let selected = SSL_get_selected_srtp_profile(ssl) else { return fail(.noSRTPProfileNegotiated) }
        guard let profile = SRTPProfile(protectionProfileID: selected.pointee.id) else {
            return fail(.unsupportedSRTPProfile(id: selected.pointee.id))
        }
        let label = "EXTRACTOR-dtls_srtp"
        var exported = [UInt8](repeating: 0, count: 2 * (profile.keyLength + profile.saltLength))
        let ok = SSL_export_keying_material(ssl, &exported, exported.count, label, label.utf8.count, nil, 0, 0)
        guard ok == 1, let keys = SRTPKeyMaterial(exported: exported, profile: profile, role: role) else {
            return fail(.keyExportFailed(reason: OpenSSLErrorQueue.drain()))
        }
        state = .connected
        events.append(.connected(keys))
    }

    private func readApplicationData() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while state == .connected {
            ERR_clear_error()
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count > 0 {
                events.append(.applicationData(Array(buffer.prefix(Int(count)))))
                continue
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return }
            if error == SSL_ERROR_ZERO_RETURN {
                state = .closed
                events.append(.closed)
                return
            }
            fail(.readFailed(reason: "SSL_read: " + OpenSSLErrorQueue.drain()))
        }
    }

    private func fail(_ error: DTLSError) {
        state = .failed
        events.append(.failed(error))
    }
}

extension Duration {
    /// Microseconds for OpenSSL's timer callback, never negative.
    fileprivate var wholeMicrosecondsForTimer: Int64 {
        let (seconds, attoseconds) = components
        return max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }
}
