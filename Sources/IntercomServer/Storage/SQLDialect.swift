/// Where the two engines' SQL differs in what the stores write (everything else is common SQL).
public enum SQLDialect: Sendable {
    case sqlite
    case postgres

    /// A condition that `column` contains the text bound to the one `?` it has.
    func contains(_ column: String) -> String {
        switch self {
        case .sqlite: "instr(\(column), ?) > 0"
        case .postgres: "strpos(\(column), ?) > 0"
        }
    }

    /// A condition that the row's geopoint may lie in one of `boxes`, answered by an index: SQLite's R*Tree
    /// beside the table, PostgreSQL's GiST index on `point(longitude, latitude)`.
    func geoOverlap(_ boxes: [GeoBox], geoTable: String) -> (sql: String, values: [SQLValue]) {
        switch self {
        case .sqlite:
            let overlap = "(maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?)"
            return ("id IN (SELECT id FROM \(geoTable) WHERE "
                        + Array(repeating: overlap, count: boxes.count).joined(separator: " OR ") + ")",
                    boxes.flatMap {
                        [.real($0.minLatitude), .real($0.maxLatitude), .real($0.minLongitude), .real($0.maxLongitude)]
                    })
        case .postgres:
            let inside = "point(longitude, latitude) <@ box(point(?, ?), point(?, ?))"
            return (Array(repeating: inside, count: boxes.count).joined(separator: " OR "),
                    boxes.flatMap {
                        [.real($0.minLongitude), .real($0.minLatitude), .real($0.maxLongitude), .real($0.maxLatitude)]
                    })
        }
    }
}
