/// `[identity]`: who the device is and where it stands (devices do not move; SYSTEM.md §2).
public struct IdentitySettings: Sendable, Equatable {
    public var title: String
    public var latitude: Double
    public var longitude: Double

    public init(title: String, latitude: Double, longitude: Double) {
        self.title = title
        self.latitude = latitude
        self.longitude = longitude
    }

    init(_ reader: ConfigReader) {
        title = reader.text("title", required: true, maxLength: 100) ?? ""
        latitude = reader.float("latitude", in: -90...90, required: true) ?? 0
        longitude = reader.float("longitude", in: -180...180, required: true) ?? 0
        reader.rejectUnknownKeys()
    }
}
