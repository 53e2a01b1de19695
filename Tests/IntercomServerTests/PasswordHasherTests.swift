@testable import IntercomServer
import Testing

/// PBKDF2-HMAC-SHA256 against RFC 7914 §11's test vectors, and the stored-hash format.
@Suite struct PasswordHasherTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test func matchesRFC7914Vectors() {
        #expect(Self.hex(PasswordHasher.pbkdf2(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1))
            == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc")
        #expect(Self.hex(PasswordHasher.pbkdf2(password: Array("Password".utf8), salt: Array("NaCl".utf8), iterations: 80_000))
            == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56")
    }

    @Test func hashesVerifyOnlyTheirPassword() {
        let hasher = PasswordHasher(iterations: 50)
        let stored = hasher.hash("s3cret pässword")
        #expect(stored.hasPrefix("pbkdf2-sha256$50$"))
        #expect(!stored.contains("s3cret"))
        #expect(hasher.verify("s3cret pässword", against: stored))
        #expect(!hasher.verify("s3cret password", against: stored))
        #expect(hasher.hash("same") != hasher.hash("same"))  // salted
        // The iteration count travels with the hash.
        #expect(PasswordHasher(iterations: 7).verify("s3cret pässword", against: stored))
        for malformed in ["", "plain", "pbkdf2-sha256$0$AA==$AA==", "md5$1$a$b", "pbkdf2-sha256$50$!!$!!"] {
            #expect(!hasher.verify("x", against: malformed), "\(malformed)")
        }
        #expect(!hasher.verify("", against: hasher.unmatchableHash()))
    }
}
