import Foundation
import Testing
import WebRTC

@Suite("DTLS certificate cache")
struct DTLSCertificateCacheTests {
    @Test("one certificate for calls within a week; a new one after a week, and after the clock went back")
    func renewal() throws {
        let cache = DTLSCertificateCache()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try cache.certificate(now: start)
        #expect(try cache.certificate(now: start) === first)
        #expect(try cache.certificate(now: start.addingTimeInterval(6 * 86_400)) === first)
        let renewed = try cache.certificate(now: start.addingTimeInterval(7 * 86_400 + 1))
        #expect(renewed !== first && renewed.fingerprint != first.fingerprint)
        #expect(renewed.notAfter > start.addingTimeInterval(30 * 86_400))
        let wound = try cache.certificate(now: start)  // the clock went back past the renewed one's creation
        #expect(wound !== renewed)
    }
}
