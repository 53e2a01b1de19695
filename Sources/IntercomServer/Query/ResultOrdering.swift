/// Result order: the explicit `order` keys when given (the documented Parse behaviour, which also wins over
/// `$nearSphere` on parse-server's Mongo adapter), else distance ascending for a `$nearSphere` query, else
/// creation order. Ties keep creation order.
enum ResultOrdering {
    static func sort(_ objects: [[String: JSONValue]], options: QueryOptions) -> [[String: JSONValue]] {
        if !options.order.isEmpty {
            return stableSorted(objects) { a, b in
                for key in options.order {
                    switch ValueComparison.sortOrder(a[key.field], b[key.field]) {
                    case .same: continue
                    case .ascending: return key.descending ? .descending : .ascending
                    case .descending: return key.descending ? .ascending : .descending
                    }
                }
                return .same
            }
        }
        if let near = options.predicate.nearConstraint {
            let keyed = objects.map { object in
                (object, object[near.field].flatMap(GeoPoint.init(json:)).map {
                    GreatCircle.radians(from: near.center, to: $0)
                } ?? .infinity)
            }
            return stableSorted(keyed) { a, b in
                a.1 < b.1 ? .ascending : (a.1 == b.1 ? .same : .descending)
            }.map(\.0)
        }
        return objects
    }

    private static func stableSorted<T>(_ items: [T], by compare: (T, T) -> Ordering) -> [T] {
        items.enumerated().sorted { a, b in
            switch compare(a.element, b.element) {
            case .ascending: true
            case .descending: false
            case .same: a.offset < b.offset
            }
        }.map(\.element)
    }
}
