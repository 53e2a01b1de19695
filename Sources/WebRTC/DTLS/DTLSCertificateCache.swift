import Foundation
import Synchronization

/// One DTLS certificate for every call, renewed a week after it was made (its lifetime is 30 days).
///
/// A certificate per call put a P-256 key generation and a self-signature on the path from answer to first
/// frame, on a Pi's slow core. Reusing one across calls is what RTCCertificate allows browsers too: the
/// fingerprint is sent over authenticated signaling each time, and the key never leaves the process.
public final class DTLSCertificateCache: Sendable {
    public static let renewal: Duration = .seconds(7 * 24 * 60 * 60)

    private let commonName: String
    private let current = Mutex<DTLSCertificate?>(nil)

    public init(commonName: String = "intercom") {
        self.commonName = commonName
    }

    /// The current certificate, or a new one when there is none yet or the current one is `renewal` old
    /// (by the wall clock at `now`; a clock set back also renews, rather than trusting a future certificate).
    public func certificate(now: Date = Date()) throws(DTLSError) -> DTLSCertificate {
        try current.withLock { current throws(DTLSError) -> DTLSCertificate in
            if let existing = current {
                let age = now.timeIntervalSince(existing.notBefore) - TimeInterval(DTLSCertificate.backdating.components.seconds)
                if age >= 0, age < TimeInterval(Self.renewal.components.seconds) { return existing }
            }
            let made = try DTLSCertificate(commonName: commonName, now: now)
            current = made
            return made
        }
    }
}
