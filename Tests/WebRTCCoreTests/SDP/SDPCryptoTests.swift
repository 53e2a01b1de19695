import Testing
@testable import WebRTCCore

@Suite("SDP a=crypto (RFC 4568 §9.1)")
struct SDPCryptoTests {
    /// The key of RFC 4568 §7.1.1's example offer: 40 base64 characters, 30 bytes.
    static let rfcKey = "PS1uQCVeeCFCanVmcjkpPywjNWhcYD0mXXtxaVBR"

    @Test func parsesTheRFCExampleAndWritesItBack() throws {
        let value = "1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)|2^20|1:4"
        let crypto = try SDPCrypto(parsing: value)
        #expect(crypto.tag == 1 && crypto.suite == .aesCM128HMACSHA1_80 && crypto.keySalt.count == 30)
        #expect(crypto.lifetime == "2^20" && crypto.mki == SDPCrypto.MKI(value: "1", length: 4))
        #expect(crypto.value == value)
        // An MKI and a short lifetime need re-keying, which one SRTP session per call does not do.
        #expect(!crypto.isUsableForOneKey)
    }

    @Test func roundTripsEveryShape() throws {
        let key: [UInt8] = (0 ..< 30).map { UInt8($0 * 7 + 3) }
        let shapes = [
            SDPCrypto(tag: 1, suite: .aesCM128HMACSHA1_80, keySalt: key),
            SDPCrypto(tag: 123_456_789, suite: .aesCM128HMACSHA1_32, keySalt: key, lifetime: "2^31"),
            SDPCrypto(tag: 7, suite: .aesCM128HMACSHA1_32, keySalt: key, mki: .init(value: "255", length: 1)),
            SDPCrypto(tag: 2, suite: .aesCM128HMACSHA1_80, keySalt: key, sessionParameters: ["UNENCRYPTED_SRTCP"]),
        ]
        for crypto in shapes {
            #expect(try SDPCrypto(parsing: crypto.value) == crypto, "\(crypto.value)")
        }
        #expect(shapes[0].isUsableForOneKey && shapes[1].isUsableForOneKey)
        #expect(!shapes[2].isUsableForOneKey && !shapes[3].isUsableForOneKey)
    }

    @Test func base64MatchesRFC4648Vectors() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
                       ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(SDPBase64.encode(Array(plain.utf8)) == encoded)
            #expect(SDPBase64.decode(Substring(encoded)) == Array(plain.utf8))
        }
        for bad in ["Zg=", "Zh==", "Z===", "Zg==Zg==", "Zm9v!", "Zm=v"] {
            #expect(SDPBase64.decode(Substring(bad)) == nil, "\(bad)")
        }
    }

    @Test func malformedValuesAreTypedErrors() {
        let cases: [(String, SDPCryptoError)] = [
            ("1 AES_CM_128_HMAC_SHA1_80", .missingFields),
            ("x AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)", .invalidTag("x")),
            ("1234567890 AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)", .invalidTag("1234567890")),
            ("1 F8_128_HMAC_SHA1_80 inline:\(Self.rfcKey)", .unsupportedSuite("F8_128_HMAC_SHA1_80")),
            ("1 AES_CM_128_HMAC_SHA1_80 uri:http://x", .unsupportedKeyMethod("uri")),
            ("1 AES_CM_128_HMAC_SHA1_80 inline:not*base64", .invalidBase64),
            ("1 AES_CM_128_HMAC_SHA1_80 inline:Zm9vYmFy", .keyLength(suite: "AES_CM_128_HMAC_SHA1_80", expected: 30, actual: 6)),
            ("1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)|2^x", .invalidLifetime("2^x")),
            ("1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)|1:0", .invalidMKI("1:0")),
            ("1 AES_CM_128_HMAC_SHA1_80 inline:\(Self.rfcKey)|1:4|2^20", .invalidLifetime("2^20")),
        ]
        for (value, expected) in cases {
            #expect(throws: expected, "\(value)") { try SDPCrypto(parsing: value) }
        }
    }

    @Test func aMalformedCryptoLineStillParsesAsASectionAndIsLeftOutOfCryptos() throws {
        let text = ["v=0", "o=- 1 1 IN IP4 192.0.2.1", "s=-", "c=IN IP4 192.0.2.1", "t=0 0", "m=audio 4000 RTP/SAVP 0",
                    "a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:short", "a=crypto:2 AES_CM_128_HMAC_SHA1_32 inline:\(Self.rfcKey)",
                    ""].joined(separator: "\r\n")
        let session = try SessionDescription(parsing: text)
        #expect(session.media[0].cryptos.map(\.tag) == [2])
        #expect(session.serialized().contains("a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:short\r\n"))
    }
}
