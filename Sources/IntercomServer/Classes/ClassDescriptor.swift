/// What this server knows about one Parse class: its fixed schema (SYSTEM.md §2), which fields are
/// copied into indexed SQL columns, and which fields only the server may set.
struct ClassDescriptor: Sendable {
    let name: String
    let fixedFields: [String: FieldType]
    /// String fields mirrored into SQL columns of the same name (equality and `$in` use the index).
    let indexedStringColumns: [String]
    /// The GeoPoint field mirrored into `latitude`/`longitude` and the `<name>_geo` R*Tree.
    let geoField: String?
    /// The Date field mirrored into an `expiresAt` column; rows past it are invisible and swept.
    let expiryField: String?
    /// Fields the server fills (the original Cloud Code `beforeSave`); client values are dropped.
    let serverOwnedFields: Set<String>
    /// Whether the row's `ACL` decides who reads and writes it (its readers mirrored into a `readers`
    /// column); the two original classes have fixed rules instead (`AccessPolicy`).
    var usesACL = false

    var table: String { name }
    /// The field naming the user who creates a row (`AccessPolicy.authorizeCreate`), and whose uploaded
    /// files go with it (`FileOwnership.releaseWithRow`).
    var creatorField: String { name == Self.activeSessions.name ? "callerID" : "userID" }
    var geoTable: String { name + "_geo" }

    static let activeUsers = ClassDescriptor(
        name: "ActiveUsers",
        fixedFields: [
            "userID": .string, "userTitle": .string, "userLocation": .geoPoint, "deviceKind": .string,
            "answerMode": .string, "capabilities": .array,
        ],
        indexedStringColumns: ["userID"],
        geoField: "userLocation",
        expiryField: nil,
        serverOwnedFields: []
    )

    static let activeSessions = ClassDescriptor(
        name: "ActiveSessions",
        fixedFields: [
            "callerID": .string, "callerTitle": .string, "receiverID": .string, "isVideo": .boolean,
            "isAudio": .boolean, "sessionID": .string, "publisherToken": .string, "subscriberToken": .string,
            "signalURL": .string, "iceServers": .array, "expiresAt": .date,
        ],
        indexedStringColumns: ["callerID", "receiverID", "sessionID"],
        geoField: nil,
        expiryField: "expiresAt",
        serverOwnedFields: ["sessionID", "publisherToken", "subscriberToken", "signalURL", "iceServers", "expiresAt"]
    )

    /// The visitor log (issue #19): one row per call, written by the device when it ends, readable by the
    /// users its ACL names (the device's owners). `snapshot` points at a Parse File.
    static let callLog = ClassDescriptor(
        name: "CallLog",
        fixedFields: [
            "userID": .string, "callerID": .string, "callerTitle": .string, "direction": .string, "route": .string,
            "outcome": .string, "startedAt": .date, "answeredAt": .date, "endedAt": .date, "snapshot": .file,
            "callerSpokeSeconds": .number,
        ],
        indexedStringColumns: ["userID"],
        geoField: nil,
        expiryField: nil,
        serverOwnedFields: [],
        usesACL: true
    )

    static func named(_ name: String) -> ClassDescriptor? {
        switch name {
        case activeUsers.name: activeUsers
        case activeSessions.name: activeSessions
        case callLog.name: callLog
        default: nil
        }
    }
}
