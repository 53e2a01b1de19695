import Foundation
import Glibc
import IntercomPlatform

/// A chip of the kernel's gpio-sim driver, as the QEMU harness (Tests/hardware/harness.sh) provides it.
/// Writing `pull-up`/`pull-down` to a line's `pull` attribute plays the world outside the board (a button to
/// ground: `pull-down` is pressed, `pull-up` released); reading `value` shows the level a consumer drives on
/// an output.
///
/// `GPIOSim.harness` is the chip the harness creates at boot: lines named GPIO17, GPIO27, GPIO22, GPIO23,
/// GPIO24, GPIO25 at offsets 0…5. `GPIOSim.create` makes a chip of a test's own through configfs, so that
/// its lines are not shared with tests running at the same time; `remove()` takes it away again.
public struct GPIOSim: Sendable {
    /// `/sys/devices/platform/gpio-sim.N`: the chip's platform device.
    public let platformDirectory: String
    /// The configfs directory of a chip `create` made; nil for the harness's chip.
    public let configfsDirectory: String?

    public static let harness = GPIOSim(platformDirectory: "/sys/devices/platform/gpio-sim.0", configfsDirectory: nil)
    public static let configfsRoot = "/sys/kernel/config/gpio-sim"

    /// `/sys/devices/platform/gpio-sim.N/gpiochipM`, once the chip is live.
    public var chipDirectory: String? {
        (try? FileManager.default.contentsOfDirectory(atPath: platformDirectory))?
            .first { $0.hasPrefix("gpiochip") }
            .map { "\(platformDirectory)/\($0)" }
    }

    public var isAvailable: Bool { chipDirectory != nil }

    func attribute(_ name: String, offset: Int) -> String? {
        chipDirectory.map { "\($0)/sim_gpio\(offset)/\(name)" }
    }

    /// Plays the world outside: `pull-down` is a button to ground pressed, `pull-up` released.
    public func pull(_ direction: String, offset: Int) throws {
        guard let path = attribute("pull", offset: offset) else {
            throw SystemCallError(call: "open", errno: ENOENT, path: platformDirectory, detail: "no gpio-sim chip")
        }
        try Self.write(direction, to: path)
    }

    /// The level a consumer drives on an output line (0 or 1).
    public func value(offset: Int) -> Int? {
        guard let path = attribute("value", offset: offset),
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Creates and brings up a chip `name` with one bank whose lines carry `lines` as names (offsets in
    /// order). Throws, saying why, when gpio-sim or configfs is missing (outside the harness).
    public static func create(_ name: String, label: String, lines: [String]) throws -> GPIOSim {
        guard FileManager.default.fileExists(atPath: configfsRoot) else {
            throw SystemCallError(call: "stat", errno: ENOENT, path: configfsRoot,
                                  detail: "gpio-sim is not available (needs configfs and the gpio-sim module: "
                                      + "run inside Tests/hardware/harness.sh)")
        }
        let directory = "\(configfsRoot)/\(name)"
        try makeDirectory(directory)
        // From here on a failure takes the half-made chip away again.
        let half = GPIOSim(platformDirectory: "", configfsDirectory: directory)
        do {
            try makeDirectory("\(directory)/bank0")
            try write("\(lines.count)", to: "\(directory)/bank0/num_lines")
            try write(label, to: "\(directory)/bank0/label")
            for (offset, line) in lines.enumerated() {
                try makeDirectory("\(directory)/bank0/line\(offset)")
                try write(line, to: "\(directory)/bank0/line\(offset)/name")
            }
            try write("1", to: "\(directory)/live")
            let device = try String(contentsOfFile: "\(directory)/dev_name", encoding: .utf8)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let chip = GPIOSim(platformDirectory: "/sys/devices/platform/\(device)", configfsDirectory: directory)
            guard chip.isAvailable else {
                throw SystemCallError(call: "open", errno: ENOENT, path: chip.platformDirectory,
                                      detail: "the live gpio-sim chip has no gpiochip directory")
            }
            return chip
        } catch {
            half.remove()
            throw error
        }
    }

    /// Takes a chip `create` made offline and deletes its configfs directories; the harness's chip stays.
    public func remove() {
        guard let configfsDirectory else { return }
        try? Self.write("0", to: "\(configfsDirectory)/live")
        let bank = "\(configfsDirectory)/bank0"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: bank)) ?? [] where entry.hasPrefix("line") {
            rmdir("\(bank)/\(entry)")
        }
        rmdir(bank)
        rmdir(configfsDirectory)
    }

    /// One plain write(2) of `text`: sysfs and configfs attributes take a value per write.
    static func write(_ text: String, to path: String) throws {
        let fd = try retryingOnInterrupt("open", path: path) { open(path, O_WRONLY) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = try retryingOnInterrupt("write", path: path) {
            bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        }
        guard written == bytes.count else {
            throw SystemCallError(call: "write", errno: EIO, path: path, detail: "short write")
        }
    }

    static func makeDirectory(_ path: String) throws {
        try retryingOnInterrupt("mkdir", path: path) { mkdir(path, 0o755) }
    }
}
