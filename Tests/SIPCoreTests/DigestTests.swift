import SIPCore
import Testing

@Suite("Digest authentication client")
struct DigestTests {
    static let rfc7616Nonce = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v"
    static let rfc7616Opaque = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"
    static let rfc7616CNonce = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ"
    let mufasa = DigestCredentials(username: "Mufasa", password: "Circle of Life")

    func challenge(_ algorithm: String) -> String {
        """
        Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=\(algorithm), \
        nonce="\(Self.rfc7616Nonce)", opaque="\(Self.rfc7616Opaque)"
        """
    }

    /// RFC 7616 §3.9.1.
    @Test(arguments: [
        ("MD5", "8ca523f5e9506fed4657c9700eebdbec"),
        ("SHA-256", "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"),
    ])
    func rfc7616Vectors(algorithm: String, expected: String) throws {
        let parsed = try DigestChallenge(parsing: challenge(algorithm))
        #expect(parsed.realm == "http-auth@example.org")
        #expect(parsed.qopOptions == ["auth", "auth-int"])
        #expect(parsed.opaque == Self.rfc7616Opaque)
        var client = DigestClient(credentials: mufasa)
        let header = try client.authorization(
            for: parsed, method: SIPMethod("GET"), uri: "/dir/index.html", cnonce: Self.rfc7616CNonce)
        #expect(header.contains(#"response="\#(expected)""#))
        #expect(header.contains("nc=00000001"))
        #expect(header.contains("qop=auth,") || header.hasSuffix("qop=auth"))
        #expect(header.contains(#"opaque="\#(Self.rfc7616Opaque)""#))
        #expect(header.contains("algorithm=\(algorithm)"))
    }

    /// RFC 2617 §3.5.
    @Test func rfc2617Vector() throws {
        let parsed = try DigestChallenge(parsing: """
            Digest realm="testrealm@host.com", qop="auth,auth-int", \
            nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"
            """)
        #expect(parsed.algorithm == .md5)
        var client = DigestClient(credentials: DigestCredentials(username: "Mufasa", password: "Circle Of Life"))
        let header = try client.authorization(
            for: parsed, method: SIPMethod("GET"), uri: "/dir/index.html", cnonce: "0a4f113b")
        #expect(header.contains(#"response="6629fae49393a05397450978507c4ef1""#))
    }

    @Test func nonceCountIncrementsPerNonceAndRestartsForANewOne() throws {
        var client = DigestClient(credentials: mufasa)
        let first = try DigestChallenge(parsing: challenge("MD5"))
        var second = first
        second.nonce = "another"
        var headers: [String] = []
        for challenge in [first, first, first, second] {
            headers.append(try client.authorization(for: challenge, method: .register, uri: "sip:example.com", cnonce: "c"))
        }
        #expect(headers.map { $0.contains("nc=00000001") } == [true, false, false, true])
        #expect(headers[2].contains("nc=00000003"))
    }

    @Test func challengeWithoutQopUsesTheRFC2069Form() throws {
        let parsed = try DigestChallenge(parsing: #"Digest realm="r", nonce="n", stale=TRUE"#)
        #expect(parsed.stale)
        #expect(parsed.qopOptions.isEmpty)
        var client = DigestClient(credentials: DigestCredentials(username: "u", password: "p"))
        let header = try client.authorization(for: parsed, method: .register, uri: "sip:r", cnonce: "c")
        #expect(!header.contains("nc="))
        #expect(!header.contains("cnonce="))
    }

    @Test(arguments: [
        #"Basic realm="r""#, #"Digest nonce="n""#, #"Digest realm="r", nonce="n", algorithm=SHA-512-256"#,
        #"Digest realm="r, nonce="n""#,
    ])
    func malformedOrUnsupportedChallengesAreRefused(_ value: String) {
        #expect(throws: SIPError.self) { try DigestChallenge(parsing: value) }
    }

    @Test func authIntOnlyIsRefused() throws {
        let parsed = try DigestChallenge(parsing: #"Digest realm="r", nonce="n", qop="auth-int""#)
        var client = DigestClient(credentials: mufasa)
        #expect(throws: SIPError.unsupportedQop) {
            try client.authorization(for: parsed, method: .register, uri: "sip:r", cnonce: "c")
        }
    }
}
