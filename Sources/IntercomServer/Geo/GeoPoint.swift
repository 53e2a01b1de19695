/// Parse's `{"__type":"GeoPoint","latitude":D,"longitude":D}`, range-checked as the SDKs do
/// (latitude in [-90, 90], longitude in [-180, 180]).
public struct GeoPoint: Sendable, Equatable, Hashable {
    public let latitude: Double
    public let longitude: Double

    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// A typed GeoPoint value; nil for anything else, including out-of-range coordinates.
    public init?(json: JSONValue) {
        guard json.parseType == "GeoPoint", let latitude = json["latitude"]?.numberValue,
              let longitude = json["longitude"]?.numberValue
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// MongoDB's legacy `[longitude, latitude]` pair, which `$centerSphere` also accepts.
    init?(longitudeLatitudePair json: JSONValue) {
        guard let pair = json.arrayValue, pair.count == 2, let longitude = pair[0].numberValue,
              let latitude = pair[1].numberValue
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    public var json: JSONValue {
        ["__type": "GeoPoint", "latitude": .number(latitude), "longitude": .number(longitude)]
    }
}
