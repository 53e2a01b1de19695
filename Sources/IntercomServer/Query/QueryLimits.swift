/// What one query may cost (issue #14, 6): a `where` is parsed and matched row by row in Swift, so its
/// size, its list operands and its nesting bound the work an unauthenticated client can ask for. Each
/// refusal is a Parse error 102 (`InvalidQuery`) saying which limit; a query that runs past its time
/// budget is 124 (`Timeout`).
public struct QueryLimits: Sendable, Equatable {
    /// Items in one `$in`, `$nin` or `$all` list.
    public var maxListItems = 500
    /// The `where` object, as JSON text.
    public var maxWhereBytes = 64 << 10
    /// `$or`/`$and`/`$nor` nested inside one another.
    public var maxNestingDepth = 4
    /// LiveQuery subscriptions one socket may hold.
    public var maxSubscriptionsPerSocket = 100
    /// Wall-clock budget of one find (fetching and matching rows).
    public var timeBudgetMilliseconds: Int64 = 1000

    public init() {}
}
