import CGPIOD
import ControlsCore
import Glibc

/// `GPIOBackend` on libgpiod 1.6 (the v1 API: `gpiod_line_*`). Lines are found with `gpiod_line_find` by name
/// or `gpiod_chip_open_lookup` + `gpiod_chip_get_line` by offset; bias and active-low are request flags.
public struct LibGPIODBackend: GPIOBackend {
    public init() {}

    public func requestInput(_ request: GPIOLineRequest) throws(GPIOError) -> any GPIOInputLine {
        let line = try LibGPIODLine.find(request)
        let result = gpiod_line_request_both_edges_events_flags(line.handle, request.consumer, Self.flags(request))
        if result < 0 {
            let code = errno
            line.closeChip()
            throw GPIOError.from(call: "gpiod_line_request_both_edges_events_flags", line: request.description, errno: code)
        }
        return LibGPIODInput(line: line)
    }

    public func requestOutput(_ request: GPIOLineRequest, initiallyActive: Bool) throws(GPIOError) -> any GPIOOutputLine {
        let line = try LibGPIODLine.find(request)
        let result = gpiod_line_request_output_flags(line.handle, request.consumer, Self.flags(request), initiallyActive ? 1 : 0)
        if result < 0 {
            let code = errno
            line.closeChip()
            throw GPIOError.from(call: "gpiod_line_request_output_flags", line: request.description, errno: code)
        }
        return LibGPIODOutput(line: line)
    }

    static func flags(_ request: GPIOLineRequest) -> Int32 {
        var flags: UInt32 = 0
        if request.activeLow { flags |= UInt32(GPIOD_LINE_REQUEST_FLAG_ACTIVE_LOW) }
        switch request.bias {
        case .pullUp: flags |= UInt32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP)
        case .pullDown: flags |= UInt32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN)
        case .disabled: flags |= UInt32(GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE)
        case .asIs: break
        }
        return Int32(bitPattern: flags)
    }
}

/// A found (not yet requested) line and the chip handle libgpiod opened for it.
final class LibGPIODLine {
    let handle: OpaquePointer
    let name: String
    private var chipOpen = true

    private init(handle: OpaquePointer, name: String) {
        self.handle = handle
        self.name = name
    }

    static func find(_ request: GPIOLineRequest) throws(GPIOError) -> LibGPIODLine {
        switch request.address {
        case .named(let name):
            errno = 0
            guard let line = gpiod_line_find(name) else {
                // gpiod_line_find returns NULL with errno 0 when no chip has the name.
                throw GPIOError.from(call: "gpiod_line_find", line: request.description, errno: errno == 0 ? ENOENT : errno)
            }
            return LibGPIODLine(handle: line, name: request.description)
        case .offset(let chipName, let offset):
            guard let chip = gpiod_chip_open_lookup(chipName) else {
                throw GPIOError.from(call: "gpiod_chip_open_lookup", line: request.description, errno: errno)
            }
            guard offset >= 0, let line = gpiod_chip_get_line(chip, UInt32(offset)) else {
                let code = offset < 0 ? EINVAL : errno
                gpiod_chip_close(chip)
                throw GPIOError.from(call: "gpiod_chip_get_line", line: request.description, errno: code)
            }
            return LibGPIODLine(handle: line, name: request.description)
        }
    }

    /// Releases the request (if any) and closes the chip the line belongs to; safe to call twice.
    func closeChip() {
        guard chipOpen else { return }
        chipOpen = false
        gpiod_line_release(handle)
        gpiod_line_close_chip(handle)
    }

    var isOpen: Bool { chipOpen }
}
