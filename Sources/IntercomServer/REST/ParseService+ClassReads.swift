/// Get and find on `/classes/<name>` (parse-wire.md §4–§5).
extension ParseService {
    func get(className: String, objectId: String, _ request: ParseRequest, auth: RequestAuth) async throws
        -> ParseResponse
    {
        let options = try QueryOptions(projectionParameters: request.parameters)
        guard let descriptor = ClassDescriptor.named(className) else { throw ParseError.objectNotFound }
        let filter = accessPolicy(descriptor).visibleRows(for: auth, now: clock.milliseconds)
        guard let object = try await database.read({ db in
            try ObjectStore.fetch(db, descriptor, objectId: objectId, extra: filter)
        }) else { throw ParseError.objectNotFound }
        return .ok(.object(Projection.apply(object.restJSON, keys: options.keys, excluding: options.excludeKeys)))
    }

    func find(className: String, _ request: ParseRequest, auth: RequestAuth) async throws -> ParseResponse {
        let limits = configuration.queryLimits
        let options = try QueryOptions(parameters: request.parameters, defaultLimit: configuration.defaultLimit,
                                       maxLimit: configuration.maxLimit, limits: limits)
        let deadline = ContinuousClock.now + .milliseconds(limits.timeBudgetMilliseconds)
        // A query on a class that does not exist is an empty result, not an error (parse-server).
        guard let descriptor = ClassDescriptor.named(className) else {
            return .ok(options.count ? ["results": [], "count": 0] : ["results": []])
        }
        var filter = accessPolicy(descriptor).visibleRows(for: auth, now: clock.milliseconds)
        filter.append(RowFilter.prefilter(for: options.predicate, in: descriptor))
        let candidates = try await database.read { [filter] db in
            try ObjectStore.find(db, descriptor, filter: filter, deadline: deadline)
        }
        var matches: [[String: JSONValue]] = []
        for (index, candidate) in candidates.enumerated() {
            if index % 256 == 0, ContinuousClock.now > deadline { throw QueryTimeout() }
            let json = candidate.restJSON
            if QueryMatcher.matches(json, options.predicate) { matches.append(json) }
        }
        let ordered = ResultOrdering.sort(matches, options: options)
        let page = ordered.dropFirst(options.skip).prefix(options.limit)
        var body: [String: JSONValue] = [
            "results": .array(page.map { .object(Projection.apply($0, keys: options.keys, excluding: options.excludeKeys)) }),
        ]
        if options.count { body["count"] = .number(Double(matches.count)) }
        return .ok(.object(body))
    }
}
