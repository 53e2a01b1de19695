/// A find ran past `QueryLimits.timeBudgetMilliseconds`; answered 124 (`ParseService.parseError`).
struct QueryTimeout: Error, Equatable {
    static let message = "Query timed out: it ran past the server's time budget; narrow it or add a limit"
}
