extension Duration {
    /// Whole milliseconds, rounded down (negative durations round towards zero): poll(2) timeouts, frame
    /// intervals.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
