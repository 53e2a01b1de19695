import CV4L2Shims
import Glibc
import IntercomPlatform

/// `ioctl(2)` on a V4L2 node through the C shim (ioctl is variadic), retried on EINTR, failing with the request
/// name and errno. The corresponding C pattern is the `xioctl` helper of the V4L2 capture example.
enum V4L2Ioctl {
    static func perform<Argument>(
        _ fd: Int32, _ request: UInt, _ name: String, _ argument: inout Argument, device: String
    ) throws(SystemCallError) {
        _ = try retryingOnInterrupt("ioctl(\(name))", path: device) {
            withUnsafeMutablePointer(to: &argument) { CIntercomShims_ioctl(fd, request, $0) }
        }
    }

    /// Enumeration ioctls end with EINVAL; this turns that end into nil and other failures into errors.
    static func enumerate<Argument>(
        _ fd: Int32, _ request: UInt, _ name: String, _ argument: inout Argument, device: String
    ) throws(SystemCallError) -> Bool {
        do {
            try perform(fd, request, name, &argument, device: device)
            return true
        } catch where error.errno == EINVAL {
            return false
        }
    }
}

/// Fixed-size C character arrays (`__u8 card[32]`) as Swift strings.
func cString<Tuple>(fromTuple tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
}
