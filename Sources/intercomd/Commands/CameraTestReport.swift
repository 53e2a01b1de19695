import Media

/// The lines `camera-test` ends with (pure, so its wording is tested without a camera).
enum CameraTestReport {
    static func lines(measurement: CaptureLatencyMeasurement, tap: CameraTestTap.Summary) -> [String] {
        var lines = ["source: \(tap.sourceLine ?? "unknown")"]
        if let first = tap.firstCapture, let last = tap.lastCapture, tap.frames > 1, last > first {
            let seconds = Double((last - first) / .milliseconds(1)) / 1000
            lines.append("measured: \(tap.frames) frames in \(fixed(seconds, 2)) s = \(fixed(Double(tap.frames - 1) / seconds, 1)) fps")
        } else {
            lines.append("measured: \(tap.frames) frame(s)")
        }
        var drops = "dropped: \(measurement.framesDroppedBeforeEncode) replaced before the encoder took them"
        if let driver = tap.droppedByDriver { drops += ", \(driver) skipped by the driver" }
        lines.append(drops)
        if let corrupt = tap.corrupt {
            lines.append("corrupt: \(corrupt)" + (tap.corruptionExample.map { " (last: \($0))" } ?? ""))
        }
        let latency = measurement.latency
        lines.append("capture → encoded: p50 \(fixed(latency.p50, 1)) ms, p95 \(fixed(latency.p95, 1)) ms, max \(fixed(latency.max, 1)) ms "
            + "over \(latency.count) frames")
        lines.append("cpu: \(fixed(measurement.processCPUPercentOfOneCore, 1)) % of one core (capture, conversion, VP8)")
        return lines
    }

    private static func fixed(_ value: Double, _ digits: Int) -> String { BenchFormat.fixed(value, digits) }
}
