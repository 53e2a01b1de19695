import Glibc
import IntercomPlatform

/// Why a video source could not open or deliver a frame.
public enum VideoSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A system call failed (the call, its errno and the device or file path).
    case system(SystemCallError)
    /// The Y4M file is malformed or uses a format we do not read.
    case y4m(Y4MError)
    /// The capture buffer did not match its format.
    case conversion(PixelConversionError)
    /// `nextFrame()` before `open()`.
    case notOpen
    /// A file ended and looping is off.
    case endOfStream

    /// The device went away (unplugged camera, USB reset): worth closing and reopening later. `ENOENT` counts
    /// because a reopen races udev removing and re-creating the node.
    public var isDeviceLost: Bool {
        guard case .system(let error) = self else { return false }
        return [ENODEV, ENXIO, EIO, ENOENT].contains(error.errno)
    }

    public var description: String {
        switch self {
        case .system(let error): "\(error)"
        case .y4m(let error): "\(error)"
        case .conversion(let error): "\(error)"
        case .notOpen: "video source used before open()"
        case .endOfStream: "end of stream"
        }
    }
}
