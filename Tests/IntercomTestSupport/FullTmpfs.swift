import Foundation
import Glibc

/// A tiny tmpfs mounted for one test and filled to the last byte, so writes into it fail with ENOSPC like a
/// full SD card's; `free()` makes room again. Needs root (mount(8)): a test run without it fails and says so.
public final class FullTmpfs {
    public let mountPoint: String
    private let filler: String

    /// Mounts a `sizeKiB` tmpfs with `directories` created in it (directories need no data blocks), then fills it.
    public init(sizeKiB: Int = 64, directories: [String] = ["state"]) throws {
        mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("full-tmpfs-\(UUID().uuidString)").path
        filler = mountPoint + "/filler"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try Self.shell("/bin/mount", ["-t", "tmpfs", "-o", "size=\(sizeKiB)k", "tmpfs", mountPoint])
        for directory in directories {
            try FileManager.default.createDirectory(atPath: mountPoint + "/" + directory, withIntermediateDirectories: true)
        }
        fill()
    }

    /// Fills what is left: dd stops at ENOSPC (its exit status says so), and the file system is full after it.
    public func fill() {
        _ = try? Self.shell("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4k", "oflag=append", "conv=notrunc"])
    }

    deinit {
        _ = try? Self.shell("/bin/umount", [mountPoint])
        try? FileManager.default.removeItem(atPath: mountPoint)
    }

    public func free() { unlink(filler) }

    @discardableResult
    static func shell(_ tool: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FullTmpfsError(detail: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)"
                + (getuid() == 0 ? "" : " (this test needs root to mount a tmpfs)"))
        }
        return process.terminationStatus
    }
}

public struct FullTmpfsError: Error, CustomStringConvertible {
    public var detail: String
    public var description: String { detail }
}
