/// Mean and order statistics of a set of per-frame measurements in milliseconds. Percentiles index the
/// sorted samples the way `bench/vp8bench.c` does (`sorted[Int(n × q)]`, p50 = `sorted[n / 2]`), so our
/// figures and the raw baseline's are computed alike.
public struct LatencySummary: Sendable, Equatable {
    public let count: Int
    public let mean: Double
    public let p50: Double
    public let p95: Double
    public let p99: Double
    public let max: Double

    /// Nil for no samples.
    public init?(milliseconds samples: [Double]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        let count = sorted.count
        func at(_ quantile: Double) -> Double { sorted[Swift.min(count - 1, Int(Double(count) * quantile))] }
        self.count = count
        mean = sorted.reduce(0, +) / Double(count)
        p50 = sorted[count / 2]
        p95 = at(0.95)
        p99 = at(0.99)
        max = sorted[count - 1]
    }
}

/// Helpers for combining repeated runs.
public enum RunStatistics {
    /// The median (mean of the middle two for an even count); nil for no values.
    public static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
