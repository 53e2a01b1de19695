import CGPIOD
import Glibc
import IntercomPlatform

/// GPIO chips and their line names as libgpiod 1.6 reports them (`gpiod_chip_iter_*`, `gpiod_chip_get_line`,
/// `gpiod_line_name`, `gpiod_line_consumer`).
public struct GPIOChipInfo: Sendable, Equatable {
    public struct LineInfo: Sendable, Equatable {
        public var offset: Int
        /// The line's name from the device tree (`GPIO17` on a Pi), or nil when unnamed.
        public var name: String?
        /// Who holds the line now (a driver or a program), or nil when free.
        public var consumer: String?
    }

    public var name: String
    public var label: String
    public var lines: [LineInfo]
}

public enum GPIOInventory {
    /// `gpiod_version_string()`, e.g. "1.6.3".
    public static var libgpiodVersion: String { String(cString: gpiod_version_string()) }

    /// Every chip under /dev. A machine without GPIO returns an empty list, not an error.
    public static func chips() throws(SystemCallError) -> [GPIOChipInfo] {
        guard let iterator = gpiod_chip_iter_new() else {
            let code = errno
            // libgpiod scans /dev for gpiochip nodes; none at all is a normal machine without GPIO.
            if code == ENOENT || code == 0 { return [] }
            throw SystemCallError(call: "gpiod_chip_iter_new", errno: code, path: "/dev")
        }
        defer { gpiod_chip_iter_free(iterator) }
        var chips: [GPIOChipInfo] = []
        while let chip = gpiod_chip_iter_next(iterator) {
            chips.append(describe(chip))
        }
        return chips
    }

    static func describe(_ chip: OpaquePointer) -> GPIOChipInfo {
        var lines: [GPIOChipInfo.LineInfo] = []
        let count = gpiod_chip_num_lines(chip)
        for offset in 0..<count {
            guard let line = gpiod_chip_get_line(chip, offset) else { continue }
            lines.append(.init(
                offset: Int(offset),
                name: gpiod_line_name(line).map { String(cString: $0) },
                consumer: gpiod_line_consumer(line).map { String(cString: $0) }))
        }
        return GPIOChipInfo(
            name: String(cString: gpiod_chip_name(chip)), label: String(cString: gpiod_chip_label(chip)), lines: lines)
    }
}
