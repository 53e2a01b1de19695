import Foundation
import Testing
import WebRTC

@Suite struct DTLSCertificateTests {
    @Test func validityStartsOneDayInThePastAndLastsThirtyDays() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let certificate = try DTLSCertificate(now: now)
        let validity = try #require(certificate.encodedValidity())
        #expect(validity.notBefore == 1_800_000_000 - 86_400)
        #expect(validity.notAfter == 1_800_000_000 + 30 * 86_400)
        #expect(certificate.notBefore == Date(timeIntervalSince1970: 1_800_000_000 - 86_400))
    }

    @Test func fingerprintIsColonSeparatedUppercaseSHA256() throws {
        let certificate = try DTLSCertificate()
        let pairs = certificate.fingerprint.split(separator: ":")
        #expect(pairs.count == 32)
        #expect(pairs.allSatisfy { $0.count == 2 && $0.allSatisfy { "0123456789ABCDEF".contains($0) } })
        #expect(try DTLSCertificate().fingerprint != certificate.fingerprint)
    }

    @Test func fingerprintFormatting() {
        #expect(DTLSFingerprint.format([0x0A, 0xFF, 0x00]) == "0A:FF:00")
        #expect(DTLSFingerprint.normalized(" ab:cd ") == "AB:CD")
    }
}
