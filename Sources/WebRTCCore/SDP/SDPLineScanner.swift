/// Splits SDP bytes into lines in one pass (RFC 8866 §5: CRLF, with bare LF accepted).
enum SDPLineScanner {
    struct Line {
        /// Byte offsets; `end` excludes the line terminator.
        var start: Int
        var end: Int
        /// NUL or a CR that is not part of the terminator.
        var hasControlCharacter: Bool
    }

    static func lines(in bytes: [UInt8]) -> [Line] {
        bytes.withUnsafeBufferPointer { buffer in
            var lines: [Line] = []
            var start = 0
            var hasControl = false
            for index in 0..<buffer.count {
                let byte = buffer[index]
                if byte == 0x0A {
                    lines.append(line(start: start, end: index, hasControl: hasControl, buffer: buffer))
                    start = index + 1
                    hasControl = false
                } else if byte == 0x00 || byte == 0x0D {
                    hasControl = true
                }
            }
            if start < buffer.count {
                lines.append(line(start: start, end: buffer.count, hasControl: hasControl, buffer: buffer))
            }
            return lines
        }
    }

    /// Drops one trailing CR, then re-checks whether another control byte remains.
    private static func line(start: Int, end: Int, hasControl: Bool, buffer: UnsafeBufferPointer<UInt8>) -> Line {
        guard hasControl else { return Line(start: start, end: end, hasControlCharacter: false) }
        var trimmedEnd = end
        if trimmedEnd > start, buffer[trimmedEnd - 1] == 0x0D { trimmedEnd -= 1 }
        var control = false
        for index in start..<trimmedEnd where buffer[index] == 0x00 || buffer[index] == 0x0D {
            control = true
            break
        }
        return Line(start: start, end: trimmedEnd, hasControlCharacter: control)
    }
}
