/// A parsed Parse `where` clause (parse-wire.md §5): a tree of field constraints.
indirect enum QueryPredicate: Sendable, Equatable {
    case all([QueryPredicate])
    case any([QueryPredicate])
    case none([QueryPredicate])
    case field(String, FieldConstraint)

    static let matchEverything = QueryPredicate.all([])
}

/// One operator applied to one field.
enum FieldConstraint: Sendable, Equatable {
    case equals(JSONValue)
    case notEquals(JSONValue)
    case isIn([JSONValue])
    case notIn([JSONValue])
    case containsAll([JSONValue])
    case exists(Bool)
    case compare(ComparisonOperator, JSONValue)
    /// `$nearSphere` with an optional `$maxDistance*` cap (converted to radians); sorts by distance.
    case near(GeoPoint, maxRadians: Double?)
    /// `$geoWithin: {$centerSphere: [point, radians]}`
    case withinSphere(GeoPoint, radians: Double)
    /// `$within: {$box: [southWest, northEast]}`
    case withinBox(southWest: GeoPoint, northEast: GeoPoint)
    /// `$geoWithin: {$polygon: [...]}`
    case withinPolygon(GeoPolygon)
}

enum ComparisonOperator: String, Sendable, Equatable {
    case lessThan = "$lt"
    case lessThanOrEqual = "$lte"
    case greaterThan = "$gt"
    case greaterThanOrEqual = "$gte"

    func holds(_ order: Ordering) -> Bool {
        switch self {
        case .lessThan: order == .ascending
        case .lessThanOrEqual: order != .descending
        case .greaterThan: order == .descending
        case .greaterThanOrEqual: order != .ascending
        }
    }
}

/// The result of comparing a stored value with a query value: ascending means stored < query.
enum Ordering: Sendable, Equatable {
    case ascending
    case same
    case descending
}

extension QueryPredicate {
    /// The field constraints every match must satisfy (the top-level conjunction), for index prefilters.
    var requiredConstraints: [(field: String, constraint: FieldConstraint)] {
        switch self {
        case .field(let name, let constraint): [(name, constraint)]
        case .all(let parts): parts.flatMap(\.requiredConstraints)
        case .any(let parts) where parts.count == 1: parts[0].requiredConstraints
        case .any, .none: []
        }
    }

    /// The `$nearSphere` constraint that orders results by distance, if the query has one at top level.
    var nearConstraint: (field: String, center: GeoPoint)? {
        for (field, constraint) in requiredConstraints {
            if case .near(let center, _) = constraint { return (field, center) }
        }
        return nil
    }
}
