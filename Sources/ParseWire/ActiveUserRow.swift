/// The writable fields of an `ActiveUsers` row (SYSTEM.md §2). The first three are the original design's;
/// the rest are additive and omitted from the JSON when nil, so unmodified clients keep working.
public struct ActiveUserFields: Sendable, Hashable, Codable {
    public var userID: String
    public var userTitle: String
    public var userLocation: GeoPoint
    /// `intercom`, `browser` or `app`.
    public var deviceKind: String?
    /// `auto`, `button` or `auto-after`.
    public var answerMode: String?
    /// e.g. `["audio","video","door"]`.
    public var capabilities: [String]?

    public init(
        userID: String, userTitle: String, userLocation: GeoPoint,
        deviceKind: String? = nil, answerMode: String? = nil, capabilities: [String]? = nil
    ) {
        self.userID = userID
        self.userTitle = userTitle
        self.userLocation = userLocation
        self.deviceKind = deviceKind
        self.answerMode = answerMode
        self.capabilities = capabilities
    }
}

/// An `ActiveUsers` row as the server returns it. `updatedAt` is the presence heartbeat.
public struct ActiveUserRow: Sendable, Hashable, Decodable {
    public var objectId: String
    public var createdAt: ParseTimestamp?
    public var updatedAt: ParseTimestamp?
    public var userID: String
    public var userTitle: String
    public var userLocation: GeoPoint
    public var deviceKind: String?
    public var answerMode: String?
    public var capabilities: [String]?

    public var fields: ActiveUserFields {
        ActiveUserFields(
            userID: userID, userTitle: userTitle, userLocation: userLocation,
            deviceKind: deviceKind, answerMode: answerMode, capabilities: capabilities)
    }
}
