import CSRTP

/// The DTLS-SRTP protection profiles we offer, strongest first (RFC 5764 §4.1.2, RFC 7714 §14.2).
public enum SRTPProfile: CaseIterable, Sendable, Equatable {
    case aeadAES256GCM
    case aeadAES128GCM
    case aes128CMHMACSHA1_80
    case aes128CMHMACSHA1_32

    /// The name `SSL_CTX_set_tlsext_use_srtp` takes.
    public var openSSLName: String {
        switch self {
        case .aeadAES256GCM: "SRTP_AEAD_AES_256_GCM"
        case .aeadAES128GCM: "SRTP_AEAD_AES_128_GCM"
        case .aes128CMHMACSHA1_80: "SRTP_AES128_CM_SHA1_80"
        case .aes128CMHMACSHA1_32: "SRTP_AES128_CM_SHA1_32"
        }
    }

    /// The two-byte SRTPProtectionProfile value on the wire (`SSL_get_selected_srtp_profile()->id`).
    public var protectionProfileID: UInt {
        switch self {
        case .aeadAES256GCM: 0x0008
        case .aeadAES128GCM: 0x0007
        case .aes128CMHMACSHA1_80: 0x0001
        case .aes128CMHMACSHA1_32: 0x0002
        }
    }

    /// Master key length in bytes.
    public var keyLength: Int {
        self == .aeadAES256GCM ? 32 : 16
    }

    /// Master salt length in bytes: 14 for AES-CM (RFC 3711), 12 for AES-GCM (RFC 7714 §12).
    public var saltLength: Int {
        switch self {
        case .aeadAES256GCM, .aeadAES128GCM: 12
        case .aes128CMHMACSHA1_80, .aes128CMHMACSHA1_32: 14
        }
    }

    public init?(protectionProfileID: UInt) {
        guard let profile = Self.allCases.first(where: { $0.protectionProfileID == protectionProfileID }) else {
            return nil
        }
        self = profile
    }

    /// The matching `srtp_profile_t` of libsrtp2.
    var libsrtpProfile: srtp_profile_t {
        switch self {
        case .aeadAES256GCM: srtp_profile_aead_aes_256_gcm
        case .aeadAES128GCM: srtp_profile_aead_aes_128_gcm
        case .aes128CMHMACSHA1_80: srtp_profile_aes128_cm_sha1_80
        case .aes128CMHMACSHA1_32: srtp_profile_aes128_cm_sha1_32
        }
    }
}
