/// The SQL half of a find: conditions the indexes can answer (equality and `$in` on indexed columns,
/// the geo index for geo constraints, expiry, visibility). Rows that pass are then checked exactly by
/// `QueryMatcher`, so a condition here may be looser than the query but never stricter. Conditions are
/// kept engine-neutral and written in the engine's dialect only when the statement is built.
struct RowFilter: Sendable {
    private enum Condition: Sendable {
        case sql(String, [SQLValue])
        /// `column` contains the text.
        case contains(column: String, text: String, orContains: String?)
        case geoOverlap([GeoBox], table: String)
        case never
    }

    private var conditions: [Condition] = []

    var conditionCount: Int { conditions.count }

    mutating func add(_ sql: String, _ values: [SQLValue] = []) {
        conditions.append(.sql(sql, values))
    }

    /// `column` contains `text`, or `alternative` when given.
    mutating func addContains(column: String, _ text: String, or alternative: String? = nil) {
        conditions.append(.contains(column: column, text: text, orContains: alternative))
    }

    /// No row passes.
    mutating func addNever() {
        conditions.append(.never)
    }

    mutating func append(_ other: RowFilter) {
        conditions += other.conditions
    }

    /// ` WHERE …` (empty without conditions) and its arguments in `dialect`.
    func whereClause(_ dialect: SQLDialect) -> (sql: String, arguments: SQLArguments) {
        guard !conditions.isEmpty else { return ("", []) }
        var parts: [String] = []
        var values: [SQLValue] = []
        for condition in conditions {
            switch condition {
            case .sql(let sql, let bound):
                parts.append(sql)
                values += bound
            case .contains(let column, let text, let alternative):
                parts.append(([dialect.contains(column)] + (alternative.map { _ in [dialect.contains(column)] } ?? []))
                    .joined(separator: " OR "))
                values += [.text(text)] + (alternative.map { [.text($0)] } ?? [])
            case .geoOverlap(let boxes, let table):
                let overlap = dialect.geoOverlap(boxes, geoTable: table)
                parts.append(overlap.sql)
                values += overlap.values
            case .never:
                parts.append("1 = 0")
            }
        }
        return (" WHERE " + parts.map { "(\($0))" }.joined(separator: " AND "), SQLArguments(values))
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
            add("\(column) = ?", [.text(value)])
        case .isIn(let options) where options.allSatisfy({ $0.stringValue != nil }):
            let values = options.compactMap(\.stringValue)
            if values.isEmpty {
                addNever()
            } else {
                add("\(column) IN (\(values.map { _ in "?" }.joined(separator: ",")))", values.map { .text($0) })
            }
        default:
            break
        }
    }

    private mutating func addGeo(_ constraint: FieldConstraint, table: String) {
        switch constraint {
        case .near(_, nil):
            add("latitude IS NOT NULL")
        case .near(let center, let radians?), .withinSphere(let center, let radians):
            conditions.append(.geoOverlap(GeoBox.covering(center: center, radians: radians), table: table))
        case .withinBox(let southWest, let northEast):
            conditions.append(.geoOverlap(GeoBox.box(southWest: southWest, northEast: northEast), table: table))
        case .withinPolygon(let polygon):
            conditions.append(.geoOverlap([polygon.bounds], table: table))
        default:
            return
        }
    }
}
