/// `{"__type":"GeoPoint","latitude":D,"longitude":D}`. parse-server does not range-check points on write, so
/// the client validates as the SDKs do (JS `ParseGeoPoint._validate`, Parse-Swift `ParseGeoPoint.init`).
public struct GeoPoint: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    public init(latitude: Double, longitude: Double) throws(ParseWireError) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { throw .geoPointOutOfRange(latitude: latitude, longitude: longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    private enum CodingKeys: String, CodingKey { case type = "__type", latitude, longitude }

    public init(from decoder: any Decoder) throws {
        let path = codingPathString(decoder.codingPath)
        guard let container = try? decoder.container(keyedBy: CodingKeys.self),
              (try? container.decode(String.self, forKey: .type)) == "GeoPoint",
              let latitude = try? container.decode(Double.self, forKey: .latitude),
              let longitude = try? container.decode(Double.self, forKey: .longitude)
        else { throw ParseWireError.malformedTypedValue(path: path, expected: "GeoPoint") }
        try self.init(latitude: latitude, longitude: longitude)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("GeoPoint", forKey: .type)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
    }
}
