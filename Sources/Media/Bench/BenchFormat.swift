import Foundation

/// Fixed-width text for the benchmark report (and `intercomd camera-test`'s).
public enum BenchFormat {
    public static func fixed(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    /// `median (min–max)`.
    static func spread(_ values: [Double], _ digits: Int = 3) -> String {
        guard let median = RunStatistics.median(values), let low = values.min(), let high = values.max() else { return "n/a" }
        return "\(fixed(median, digits)) (\(fixed(low, digits))–\(fixed(high, digits)))"
    }

    /// Rows of cells as an aligned table with a rule under the header.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        let widths = header.indices.map { column in
            ([header] + rows).map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { pad($0.element, widths[$0.offset]) }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}
