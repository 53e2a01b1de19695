/// Evaluates a `QueryPredicate` against one object (its full REST JSON: `objectId`, `createdAt`,
/// `updatedAt` and fields), with MongoDB's semantics as parse-server exposes them: equality on an array
/// field means membership, `$ne`/`$nin` match missing fields, comparisons never match missing fields.
enum QueryMatcher {
    static func matches(_ object: [String: JSONValue], _ predicate: QueryPredicate) -> Bool {
        switch predicate {
        case .all(let parts): parts.allSatisfy { matches(object, $0) }
        case .any(let parts): parts.contains { matches(object, $0) }
        case .none(let parts): !parts.contains { matches(object, $0) }
        case .field(let name, let constraint): matches(object[name], constraint)
        }
    }

    static func matches(_ value: JSONValue?, _ constraint: FieldConstraint) -> Bool {
        switch constraint {
        case .equals(let expected): return equalsOrContains(value, expected)
        case .notEquals(let expected): return !equalsOrContains(value, expected)
        case .isIn(let options): return options.contains { equalsOrContains(value, $0) }
        case .notIn(let options): return !options.contains { equalsOrContains(value, $0) }
        case .containsAll(let required):
            guard let items = value?.arrayValue else { return false }
            return required.allSatisfy { needed in items.contains { ValueComparison.equal($0, needed) } }
        case .exists(let flag): return (value != nil && value != .null) == flag
        case .compare(let op, let bound):
            guard let value, value != .null, let order = ValueComparison.order(value, bound) else { return false }
            return op.holds(order)
        case .near(let center, let maxRadians):
            guard let point = value.flatMap(GeoPoint.init(json:)) else { return false }
            return maxRadians.map { GreatCircle.radians(from: center, to: point) <= $0 } ?? true
        case .withinSphere(let center, let radians):
            guard let point = value.flatMap(GeoPoint.init(json:)) else { return false }
            return GreatCircle.radians(from: center, to: point) <= radians
        case .withinBox(let southWest, let northEast):
            guard let point = value.flatMap(GeoPoint.init(json:)) else { return false }
            return GeoBox.box(southWest: southWest, northEast: northEast).contains { $0.contains(point) }
        case .withinPolygon(let polygon):
            guard let point = value.flatMap(GeoPoint.init(json:)) else { return false }
            return polygon.contains(point)
        }
    }

    private static func equalsOrContains(_ value: JSONValue?, _ expected: JSONValue) -> Bool {
        if case .null = expected { return value == nil || value == .null }
        if let items = value?.arrayValue, expected.arrayValue == nil {
            return items.contains { ValueComparison.equal($0, expected) }
        }
        return ValueComparison.equal(value, expected)
    }
}
