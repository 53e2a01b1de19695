/// Distances for `$maxDistance`, which parse-server and both SDKs take in radians of a sphere with the
/// Earth's mean radius (JS `withinKilometers` = km / 6371, `withinMiles` = mi / 3958.8).
public enum GeoDistance {
    public static let earthRadiusKilometers = 6371.0
    public static let earthRadiusMiles = 3958.8

    public static func radians(kilometers: Double) -> Double { kilometers / earthRadiusKilometers }
    public static func radians(miles: Double) -> Double { miles / earthRadiusMiles }
    public static func kilometers(radians: Double) -> Double { radians * earthRadiusKilometers }
}
