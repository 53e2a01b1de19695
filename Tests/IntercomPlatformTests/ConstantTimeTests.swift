import IntercomPlatform
import Testing

@Suite struct ConstantTimeTests {
    @Test func equalOnlyForTheSameBytes() {
        #expect(ConstantTime.equal("secret-token", "secret-token"))
        #expect(!ConstantTime.equal("secret-token", "secret-tokeN"))
        #expect(!ConstantTime.equal("secret-token", "secret-token "))
        #expect(!ConstantTime.equal("secret", "secret-token"))
        #expect(!ConstantTime.equal("", "x"))
        #expect(ConstantTime.equal("", ""))
    }
}
