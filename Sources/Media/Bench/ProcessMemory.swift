import IntercomPlatform

/// `VmRSS` (resident now) and `VmHWM` (peak resident) of this process, from `/proc/self/status` (proc(5)).
public struct ProcessMemory: Sendable, Equatable {
    public let residentKiB: Int
    public let peakResidentKiB: Int

    public init(residentKiB: Int, peakResidentKiB: Int) {
        self.residentKiB = residentKiB
        self.peakResidentKiB = peakResidentKiB
    }

    /// Reads `/proc/self/status`.
    public static func current() throws(SystemCallError) -> ProcessMemory {
        let bytes = try AtomicFile.read("/proc/self/status", limit: 64 << 10)
        guard let memory = ProcessMemory(status: String(decoding: bytes, as: UTF8.self)) else {
            throw SystemCallError(call: "read", errno: 0, path: "/proc/self/status", detail: "no VmRSS/VmHWM lines")
        }
        return memory
    }

    /// Parses the text of a `status` file (`VmRSS:\t  12345 kB` lines); nil when either field is missing.
    public init?(status: String) {
        var fields: [Substring: Int] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count >= 2, parts[0] == "VmRSS" || parts[0] == "VmHWM", let value = Int(parts[1]) {
                fields[parts[0]] = value
            }
        }
        guard let resident = fields["VmRSS"], let peak = fields["VmHWM"] else { return nil }
        self.init(residentKiB: resident, peakResidentKiB: peak)
    }
}
