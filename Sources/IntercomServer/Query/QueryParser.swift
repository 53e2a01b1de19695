/// Turns a `where` JSON object into a `QueryPredicate`, rejecting what parse-server rejects:
/// unknown operators (107 `bad constraint`), bad key names (105), malformed `$or` (102) and malformed
/// geo arguments (107; parse-server answers 500/1 for a bad point, which clients would retry, so this
/// server deliberately says 107 instead).
enum QueryParser {
    /// Parses `json` within `limits` (`QueryLimits`: size, list lengths, nesting).
    static func parse(_ json: JSONValue, limits: QueryLimits = QueryLimits()) throws(ParseError) -> QueryPredicate {
        guard JSONSize.fits(json, within: limits.maxWhereBytes) else {
            throw .invalidQuery("where is larger than \(limits.maxWhereBytes) bytes, the most allowed")
        }
        return try parse(json, limits: limits, depth: 0)
    }

    private static func parse(_ json: JSONValue, limits: QueryLimits, depth: Int) throws(ParseError) -> QueryPredicate {
        guard let members = json.objectValue else { throw .invalidQuery("Invalid parameter for query: where") }
        var parts: [QueryPredicate] = []
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "$or": parts.append(.any(try subqueries(value, key, limits: limits, depth: depth)))
            case "$and": parts.append(.all(try subqueries(value, key, limits: limits, depth: depth)))
            case "$nor": parts.append(.none(try subqueries(value, key, limits: limits, depth: depth)))
            default:
                guard FieldName.builtIn.contains(key) || FieldName.isValid(key) else {
                    throw .invalidKeyName("Invalid key name: \(key)")
                }
                guard key != "ACL" else { throw .invalidQuery("Cannot query on ACL.") }
                parts.append(contentsOf: try constraints(field: key, value, limits: limits).map { .field(key, $0) })
            }
        }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    private static func subqueries(_ value: JSONValue, _ key: String, limits: QueryLimits, depth: Int)
        throws(ParseError) -> [QueryPredicate]
    {
        guard let items = value.arrayValue else { throw .invalidQuery("Bad \(key) format - use an array value.") }
        guard depth < limits.maxNestingDepth else {
            throw .invalidQuery("\(key) is nested too deeply; at most \(limits.maxNestingDepth) levels are allowed")
        }
        guard items.count <= limits.maxListItems else {
            throw .invalidQuery("\(key) has \(items.count) clauses; at most \(limits.maxListItems) are allowed")
        }
        var result: [QueryPredicate] = []
        for item in items { result.append(try parse(item, limits: limits, depth: depth + 1)) }
        return result
    }

    private static func constraints(field: String, _ value: JSONValue, limits: QueryLimits) throws(ParseError)
        -> [FieldConstraint]
    {
        guard let members = value.objectValue, members.keys.contains(where: { $0.hasPrefix("$") }) else {
            return [.equals(value)]
        }
        var result: [FieldConstraint] = []
        var maxRadians: Double?
        for (op, argument) in members.sorted(by: { $0.key < $1.key }) {
            switch op {
            case "$eq": result.append(.equals(argument))
            case "$ne": result.append(.notEquals(argument))
            case "$in": result.append(.isIn(try array(argument, op, limits: limits)))
            case "$nin": result.append(.notIn(try array(argument, op, limits: limits)))
            case "$all": result.append(.containsAll(try array(argument, op, limits: limits)))
            case "$exists":
                guard let flag = argument.boolValue else { throw .invalidJSON("bad $exists value") }
                result.append(.exists(flag))
            case "$lt", "$lte", "$gt", "$gte":
                // The raw value is "$lt" etc.; ComparisonOperator(rawValue:) cannot fail here.
                result.append(.compare(ComparisonOperator(rawValue: op) ?? .lessThan, argument))
            case "$nearSphere": result.append(.near(try point(argument, op), maxRadians: nil))
            case "$maxDistance", "$maxDistanceInRadians": maxRadians = try distance(argument, op, divisor: 1)
            case "$maxDistanceInMiles":
                maxRadians = try distance(argument, op, divisor: GreatCircle.earthRadiusMiles)
            case "$maxDistanceInKilometers":
                maxRadians = try distance(argument, op, divisor: GreatCircle.earthRadiusKilometers)
            case "$geoWithin": result.append(try geoWithin(argument))
            case "$within": result.append(try within(argument))
            default: throw .invalidJSON("bad constraint: \(op)")
            }
        }
        if let maxRadians {
            guard let index = result.firstIndex(where: { if case .near = $0 { true } else { false } }),
                  case .near(let center, _) = result[index]
            else { throw .invalidJSON("bad constraint: $maxDistance needs $nearSphere") }
            result[index] = .near(center, maxRadians: maxRadians)
        }
        return result
    }

    private static func array(_ value: JSONValue, _ op: String, limits: QueryLimits) throws(ParseError) -> [JSONValue] {
        guard let items = value.arrayValue else { throw .invalidJSON("bad \(op) value") }
        guard items.count <= limits.maxListItems else {
            throw .invalidQuery("\(op) has \(items.count) values; at most \(limits.maxListItems) are allowed")
        }
        return items
    }

    private static func point(_ value: JSONValue, _ op: String) throws(ParseError) -> GeoPoint {
        guard let point = GeoPoint(json: value) ?? GeoPoint(longitudeLatitudePair: value) else {
            throw .invalidJSON("bad \(op) value: expected a GeoPoint with latitude in [-90, 90] and longitude in [-180, 180]")
        }
        return point
    }

    private static func distance(_ value: JSONValue, _ op: String, divisor: Double) throws(ParseError) -> Double {
        guard let number = value.numberValue, number.isFinite, number >= 0 else {
            throw .invalidJSON("bad \(op) value: expected a non-negative number")
        }
        return number / divisor
    }

    private static func geoWithin(_ value: JSONValue) throws(ParseError) -> FieldConstraint {
        if let sphere = value["$centerSphere"] {
            guard let pair = sphere.arrayValue, pair.count == 2 else {
                throw .invalidJSON("bad $geoWithin value; $centerSphere should be an array of [point, distance]")
            }
            let center = try point(pair[0], "$centerSphere")
            return .withinSphere(center, radians: try distance(pair[1], "$centerSphere", divisor: 1))
        }
        if let polygon = value["$polygon"] {
            guard let items = polygon.arrayValue, items.count >= 3 else {
                throw .invalidJSON("bad $geoWithin value; $polygon should contain at least 3 GeoPoints")
            }
            var vertices: [GeoPoint] = []
            for item in items { vertices.append(try point(item, "$polygon")) }
            return .withinPolygon(GeoPolygon(vertices: vertices))
        }
        throw .invalidJSON("bad $geoWithin value; use $centerSphere or $polygon")
    }

    private static func within(_ value: JSONValue) throws(ParseError) -> FieldConstraint {
        guard let corners = value["$box"]?.arrayValue, corners.count == 2 else {
            throw .invalidJSON("malformatted $within arg")
        }
        let southWest = try point(corners[0], "$box")
        let northEast = try point(corners[1], "$box")
        guard southWest.latitude <= northEast.latitude else {
            throw .invalidJSON("malformatted $within arg: the south-west corner is north of the north-east corner")
        }
        return .withinBox(southWest: southWest, northEast: northEast)
    }
}
