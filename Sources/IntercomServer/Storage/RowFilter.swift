import GRDB

/// The SQL half of a find: conditions the indexes can answer (equality and `$in` on indexed columns,
/// the R*Tree for geo constraints, expiry, visibility). Rows that pass are then checked exactly by
/// `QueryMatcher`, so a condition here may be looser than the query but never stricter.
struct RowFilter: Sendable {
    private(set) var conditions: [String] = []
    private(set) var arguments: [DatabaseValue] = []

    mutating func add(_ sql: String, _ values: [DatabaseValue] = []) {
        conditions.append(sql)
        arguments.append(contentsOf: values)
    }

    mutating func append(_ other: RowFilter) {
        conditions += other.conditions
        arguments += other.arguments
    }

    var whereClause: String {
        conditions.isEmpty ? "" : " WHERE " + conditions.map { "(\($0))" }.joined(separator: " AND ")
    }

    var statementArguments: StatementArguments {
        StatementArguments(arguments)
    }

    /// Index conditions implied by the top-level conjunction of `predicate`.
    static func prefilter(for predicate: QueryPredicate, in descriptor: ClassDescriptor) -> RowFilter {
        var filter = RowFilter()
        let columns = Set(descriptor.indexedStringColumns + ["objectId"])
        for (field, constraint) in predicate.requiredConstraints {
            if columns.contains(field) {
                filter.addEquality(column: field, constraint)
            } else if field == descriptor.geoField {
                filter.addGeo(constraint, table: descriptor.geoTable)
            }
        }
        return filter
    }

    private mutating func addEquality(column: String, _ constraint: FieldConstraint) {
        switch constraint {
        case .equals(.string(let value)):
            add("\(column) = ?", [value.databaseValue])
        case .isIn(let options) where options.allSatisfy({ $0.stringValue != nil }):
            let values = options.compactMap(\.stringValue)
            if values.isEmpty {
                add("0")
            } else {
                add("\(column) IN (\(values.map { _ in "?" }.joined(separator: ",")))", values.map(\.databaseValue))
            }
        default:
            break
        }
    }

    private mutating func addGeo(_ constraint: FieldConstraint, table: String) {
        let boxes: [GeoBox]
        switch constraint {
        case .near(_, nil):
            add("latitude IS NOT NULL")
            return
        case .near(let center, let radians?), .withinSphere(let center, let radians):
            boxes = GeoBox.covering(center: center, radians: radians)
        case .withinBox(let southWest, let northEast):
            boxes = GeoBox.box(southWest: southWest, northEast: northEast)
        case .withinPolygon(let polygon):
            boxes = [polygon.bounds]
        default:
            return
        }
        // R*Tree boxes are stored as 32-bit floats rounded outwards, so an overlap test never loses a row.
        let overlap = "(maxLatitude >= ? AND minLatitude <= ? AND maxLongitude >= ? AND minLongitude <= ?)"
        add(
            "id IN (SELECT id FROM \(table) WHERE \(boxes.map { _ in overlap }.joined(separator: " OR ")))",
            boxes.flatMap {
                [$0.minLatitude.databaseValue, $0.maxLatitude.databaseValue, $0.minLongitude.databaseValue,
                 $0.maxLongitude.databaseValue]
            }
        )
    }
}
