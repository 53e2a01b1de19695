import Foundation

/// Who this device is to the backend; persisted in `identity.json` in the state directory.
public struct DeviceIdentity: Codable, Sendable, Equatable {
    /// Stable per installation; survives re-login, changes only when the state is lost or wiped.
    public var installationID: String
    /// The id the device uses for Parse anonymous auth (`authData.anonymous.id`).
    public var anonymousAuthID: String
    /// The Parse `_User` objectId once the device has logged in.
    public var userID: String?
    /// The device user's Parse session token once logged in (a secret: the file is 0600).
    public var sessionToken: String?

    public init(installationID: String, anonymousAuthID: String, userID: String? = nil, sessionToken: String? = nil) {
        self.installationID = installationID
        self.anonymousAuthID = anonymousAuthID
        self.userID = userID
        self.sessionToken = sessionToken
    }

    /// A new identity with random UUID-based ids and no login.
    public static func fresh() -> DeviceIdentity {
        DeviceIdentity(
            installationID: UUID().uuidString.lowercased(),
            anonymousAuthID: UUID().uuidString.lowercased()
        )
    }
}
