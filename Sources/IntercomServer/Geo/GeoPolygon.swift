/// `$geoWithin: {$polygon: [...]}`: a ring of at least three points, tested by ray casting in the
/// latitude/longitude plane (as parse-server's Postgres adapter and LiveQuery matcher do).
struct GeoPolygon: Sendable, Equatable {
    let vertices: [GeoPoint]

    func contains(_ point: GeoPoint) -> Bool {
        var inside = false
        var previous = vertices[vertices.count - 1]
        for vertex in vertices {
            if (vertex.latitude > point.latitude) != (previous.latitude > point.latitude) {
                let crossing = (previous.longitude - vertex.longitude) * (point.latitude - vertex.latitude)
                    / (previous.latitude - vertex.latitude) + vertex.longitude
                if point.longitude < crossing { inside.toggle() }
            }
            previous = vertex
        }
        return inside
    }

    /// The rectangle around the ring, for the index prefilter.
    var bounds: GeoBox {
        GeoBox(minLatitude: vertices.map(\.latitude).min() ?? -90, maxLatitude: vertices.map(\.latitude).max() ?? 90,
               minLongitude: vertices.map(\.longitude).min() ?? -180,
               maxLongitude: vertices.map(\.longitude).max() ?? 180)
    }
}
