import Glibc
import IntercomPlatform

/// Line and block reads over a file descriptor with one fixed buffer: header lines come out of the buffer,
/// large frame reads go straight into the caller's memory.
final class BufferedFileReader {
    let path: String
    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0

    init(path: String, bufferSize: Int = 64 * 1024) throws(SystemCallError) {
        self.path = path
        descriptor = try retryingOnInterrupt("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        buffer = [UInt8](repeating: 0, count: bufferSize)
    }

    deinit { Glibc.close(descriptor) }

    /// The offset of the next byte a read would return.
    func position() throws(SystemCallError) -> Int64 {
        let fileOffset = lseek(descriptor, 0, SEEK_CUR)
        guard fileOffset >= 0 else { throw SystemCallError(call: "lseek", errno: errno, path: path) }
        return Int64(fileOffset) - Int64(end - start)
    }

    func seek(to offset: Int64) throws(SystemCallError) {
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            throw SystemCallError(call: "lseek", errno: errno, path: path)
        }
        start = 0
        end = 0
    }

    /// Bytes up to (not including) the next newline; nil at end of file before any byte. Returns
    /// `.tooLong` when `limit` bytes pass without a newline, and what is left of an unterminated last line.
    func readLine(limit: Int) throws(SystemCallError) -> LineResult {
        var line: [UInt8] = []
        while true {
            if start == end {
                guard try refill() else { return line.isEmpty ? .endOfFile : .line(line) }
            }
            if let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n")) {
                line.append(contentsOf: buffer[start..<newline])
                start = newline + 1
                return line.count > limit ? .tooLong : .line(line)
            }
            line.append(contentsOf: buffer[start..<end])
            start = end
            if line.count > limit { return .tooLong }
        }
    }

    enum LineResult: Equatable {
        case line([UInt8])
        case endOfFile
        case tooLong
    }

    /// Fills `destination` as far as the file allows; returns how many bytes were stored.
    func read(into destination: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        var filled = min(end - start, destination.count)
        buffer.withUnsafeBytes { source in
            destination.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: filled)
        }
        start += filled
        while filled < destination.count {
            let count = try retryingOnInterrupt("read", path: path) {
                Glibc.read(descriptor, destination.baseAddress! + filled, destination.count - filled)
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }

    private func refill() throws(SystemCallError) -> Bool {
        let count = try retryingOnInterrupt("read", path: path) {
            buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        }
        start = 0
        end = count
        return count > 0
    }
}
