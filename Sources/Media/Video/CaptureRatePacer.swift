/// Keeps a camera faster than the requested rate to that rate by letting only frames through that are due:
/// a libcamera pipeline that ignores `FrameDurationLimits` (vimc), or a USB webcam that offers only 15 and
/// 30 fps when 5 are configured (the V4L2 source skips the others before their MJPEG decode). Each
/// delivered frame makes the next one due one interval later, so the long-run rate is the requested one,
/// not whatever divides the camera's rate.
/// A quarter interval of slack keeps a camera that already runs at the requested rate from being halved
/// by jitter; after a stall the schedule restarts instead of letting a burst through.
struct CaptureRatePacer {
    let interval: Duration
    private var due: Duration?

    init(rate: FrameRate) {
        interval = rate.frameInterval
    }

    /// Whether the frame captured at `captureTime` is delivered (and the schedule advanced).
    mutating func admit(_ captureTime: Duration) -> Bool {
        if let due, captureTime < due - interval / 4 { return false }
        let next = (due ?? captureTime) + interval
        due = next < captureTime ? captureTime + interval : next
        return true
    }
}
