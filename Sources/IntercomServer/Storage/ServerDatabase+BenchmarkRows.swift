import Foundation

/// A device row for `intercom-dev bench-backend`'s table fill.
public struct BenchmarkDeviceRow: Sendable {
    public let userID: String
    public let title: String
    public let latitude: Double
    public let longitude: Double

    public init(userID: String, title: String, latitude: Double, longitude: Double) {
        self.userID = userID
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension ServerDatabase {
    /// Inserts `rows` into `ActiveUsers` in one transaction, through the same `ObjectStore.insert` a REST
    /// create uses (body, mirrored columns, geo index), but without REST, hooks or LiveQuery: the
    /// benchmark's 100k- and 1M-row tables would take many minutes through `/batch`. Returns the object ids.
    public func insertBenchmarkDevices(_ rows: [BenchmarkDeviceRow]) async throws -> [String] {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let objects = rows.map { row in
            StoredObject(objectId: RandomText.objectId(), createdAt: now, updatedAt: now, fields: [
                "userID": .string(row.userID), "userTitle": .string(row.title), "deviceKind": "intercom",
                "userLocation": ["__type": "GeoPoint", "latitude": .number(row.latitude),
                                 "longitude": .number(row.longitude)],
            ])
        }
        try await write { db in
            for object in objects { try ObjectStore.insert(db, .activeUsers, object) }
        }
        return objects.map(\.objectId)
    }
}
