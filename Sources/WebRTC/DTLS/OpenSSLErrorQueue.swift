import COpenSSL

/// OpenSSL reports failures on a thread-local error queue (`ERR_get_error`); this drains it into text
/// so typed errors can say why a call failed.
enum OpenSSLErrorQueue {
    /// Every queued error as `ERR_error_string_n` text, joined by "; ", oldest first. Empties the queue.
    static func drain() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "no OpenSSL error queued" : messages.joined(separator: "; ")
    }
}
