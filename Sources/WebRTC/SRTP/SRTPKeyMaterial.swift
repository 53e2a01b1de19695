/// SRTP master keys and salts for one DTLS association (RFC 5764 §4.2). The exporter output is laid out
/// `clientKey | serverKey | clientSalt | serverSalt`; "local" is our half, "remote" the peer's.
public struct SRTPKeyMaterial: Equatable, Sendable {
    public let profile: SRTPProfile
    public let localKey: [UInt8]
    public let localSalt: [UInt8]
    public let remoteKey: [UInt8]
    public let remoteSalt: [UInt8]

    public init(profile: SRTPProfile, localKey: [UInt8], localSalt: [UInt8], remoteKey: [UInt8], remoteSalt: [UInt8]) {
        self.profile = profile
        self.localKey = localKey
        self.localSalt = localSalt
        self.remoteKey = remoteKey
        self.remoteSalt = remoteSalt
    }

    /// Splits `2 * (key + salt)` exporter bytes for `role`; nil if the length does not fit the profile.
    public init?(exported: [UInt8], profile: SRTPProfile, role: DTLSRole) {
        let key = profile.keyLength
        let salt = profile.saltLength
        guard exported.count == 2 * (key + salt) else { return nil }
        let clientKey = Array(exported[0 ..< key])
        let serverKey = Array(exported[key ..< 2 * key])
        let clientSalt = Array(exported[2 * key ..< 2 * key + salt])
        let serverSalt = Array(exported[2 * key + salt ..< 2 * (key + salt)])
        switch role {
        case .client:
            self.init(profile: profile, localKey: clientKey, localSalt: clientSalt, remoteKey: serverKey, remoteSalt: serverSalt)
        case .server:
            self.init(profile: profile, localKey: serverKey, localSalt: serverSalt, remoteKey: clientKey, remoteSalt: clientSalt)
        }
    }
}
