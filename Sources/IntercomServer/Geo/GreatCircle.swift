import Foundation

/// Distances on a sphere. Parse's `$maxDistance` is an angle in radians; miles and kilometres convert
/// with the radii the SDKs use (Parse-SDK-JS `withinMiles`/`withinKilometers`, Parse-Swift).
public enum GreatCircle {
    public static let earthRadiusMiles = 3958.8
    public static let earthRadiusKilometers = 6371.0

    /// The central angle between two points (haversine form, stable for small distances).
    public static func radians(from a: GeoPoint, to b: GeoPoint) -> Double {
        let lat1 = a.latitude * .pi / 180
        let lat2 = b.latitude * .pi / 180
        let deltaLat = lat2 - lat1
        let deltaLon = (b.longitude - a.longitude) * .pi / 180
        let h = sin(deltaLat / 2) * sin(deltaLat / 2) + cos(lat1) * cos(lat2) * sin(deltaLon / 2) * sin(deltaLon / 2)
        return 2 * asin(min(1, sqrt(h)))
    }
}
