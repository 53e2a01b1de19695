import Glibc

/// Output helpers, unbuffered so that a test reading a pipe sees each line at once. Problems go to standard
/// error so that scripts can capture the report separately.
public enum Terminal {
    public static func out(_ line: String) {
        write(line, to: STDOUT_FILENO)
    }

    public static func error(_ line: String) {
        write(line, to: STDERR_FILENO)
    }

    private static func write(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
