import Foundation

/// A latitude/longitude rectangle (inclusive), the shape an R*Tree answers. A rectangle never crosses the
/// antimeridian: one that would is split in two.
public struct GeoBox: Sendable, Equatable {
    public let minLatitude: Double
    public let maxLatitude: Double
    public let minLongitude: Double
    public let maxLongitude: Double

    public func contains(_ point: GeoPoint) -> Bool {
        (minLatitude...maxLatitude).contains(point.latitude) && (minLongitude...maxLongitude).contains(point.longitude)
    }

    static let world = GeoBox(minLatitude: -90, maxLatitude: 90, minLongitude: -180, maxLongitude: 180)

    /// The rectangles covering every point within `radians` of `center` (a superset: an exact distance check
    /// follows). Uses the bounding-circle method of J. P. Matuschek, "Finding Points Within a Distance of a
    /// Latitude/Longitude Using Bounding Coordinates".
    static func covering(center: GeoPoint, radians: Double) -> [GeoBox] {
        guard radians < .pi else { return [world] }
        let angle = radians * 180 / .pi
        let minLatitude = center.latitude - angle
        let maxLatitude = center.latitude + angle
        // A circle over a pole covers every longitude.
        guard minLatitude > -90, maxLatitude < 90 else {
            return [GeoBox(minLatitude: max(-90, minLatitude), maxLatitude: min(90, maxLatitude), minLongitude: -180,
                           maxLongitude: 180)]
        }
        let latitudeRadians = center.latitude * .pi / 180
        let spread = asin(min(1, sin(radians) / cos(latitudeRadians))) * 180 / .pi
        return between(minLatitude: minLatitude, maxLatitude: maxLatitude, west: center.longitude - spread,
                       east: center.longitude + spread)
    }

    /// Parse's `$box` from the south-west to the north-east corner; a west edge east of the east edge
    /// means the box crosses the antimeridian.
    static func box(southWest: GeoPoint, northEast: GeoPoint) -> [GeoBox] {
        if southWest.longitude <= northEast.longitude {
            return [GeoBox(minLatitude: southWest.latitude, maxLatitude: northEast.latitude,
                           minLongitude: southWest.longitude, maxLongitude: northEast.longitude)]
        }
        return between(minLatitude: southWest.latitude, maxLatitude: northEast.latitude,
                       west: southWest.longitude, east: northEast.longitude + 360)
    }

    /// Longitudes `west…east` (west ≤ east, possibly outside ±180) folded into rectangles inside ±180.
    private static func between(minLatitude: Double, maxLatitude: Double, west: Double, east: Double) -> [GeoBox] {
        if east - west >= 360 {
            return [GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: 180)]
        }
        if west < -180 {
            return [
                GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west + 360, maxLongitude: 180),
                GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east),
            ]
        }
        if east > 180 {
            return [
                GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: 180),
                GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: -180, maxLongitude: east - 360),
            ]
        }
        return [GeoBox(minLatitude: minLatitude, maxLatitude: maxLatitude, minLongitude: west, maxLongitude: east)]
    }
}
