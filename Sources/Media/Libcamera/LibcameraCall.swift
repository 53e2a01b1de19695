import IntercomPlatform

/// The shim's failures as `SystemCallError`s: libcamera reports negative errno values, and the shim names
/// the C++ call that failed (e.g. `Camera::acquire`, `CameraConfiguration::validate`).
enum LibcameraCall {
    static func error(_ result: Int32, failedCall: UnsafePointer<CChar>?, camera: String?, detail: String? = nil) -> SystemCallError {
        SystemCallError(
            call: failedCall.map { String(cString: $0) } ?? "libcamera", errno: result < 0 ? -result : result,
            path: camera.map { "libcamera:\($0)" }, detail: detail)
    }
}
