import Logging
import ParseWire

/// The caller's `{"type":"camera","name":…}` (issue #22 "Switch camera"): the device switches and answers
/// with its `cameras` (the new one active), or refuses with `camera-error` and films on as before.
enum CameraRequest {
    static func answer(_ name: String, switching: (any CameraSwitching)?, logger: Logger) -> SignalPayload {
        do throws(CameraSwitchError) {
            guard let switching else { throw CameraSwitchError.notSupported }
            try switching.switchCamera(to: name)
            let cameras = switching.cameras
            return .cameras(names: cameras.names, active: cameras.active)
        } catch {
            logger.warning("camera switch refused: \(error.reason)")
            return refusal(name, error)
        }
    }

    /// The camera after the active one, round the list (the device's call button in a call); nil with one camera.
    static func next(after cameras: (names: [String], active: String)) -> String? {
        guard cameras.names.count > 1, let index = cameras.names.firstIndex(of: cameras.active) else { return nil }
        return cameras.names[(index + 1) % cameras.names.count]
    }

    /// The `camera-error` for `error`, its reason cut to `SignalCamera.maxReasonScalars`.
    static func refusal(_ name: String, _ error: CameraSwitchError) -> SignalPayload {
        let reason = error.reason.unicodeScalars
        let shown = reason.count > SignalCamera.maxReasonScalars
            ? String(String.UnicodeScalarView(reason.prefix(SignalCamera.maxReasonScalars - 1))) + "…"
            : error.reason
        return .cameraError(name: name, reason: shown)
    }
}
