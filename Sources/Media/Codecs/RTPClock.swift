extension Duration {
    /// This duration in ticks of an RTP media clock (90 000 Hz for video, 48 000 Hz for Opus), rounded to
    /// the nearest tick so that n × (1 s / 30) lands on n × 3000 despite the truncated division.
    func ticks(clockRate: Int64) -> Int64 {
        let (seconds, attoseconds) = components
        let nanoseconds = (attoseconds + 500_000_000) / 1_000_000_000
        return seconds * clockRate + (nanoseconds * clockRate + 500_000_000) / 1_000_000_000
    }
}
