/// Host header values used to build URLs: only host[:port] characters, so a hostile header cannot inject
/// anything into `Location` or `signalURL`.
enum HostHeader {
    static func sanitized(_ value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= 255,
              value.utf8.allSatisfy({ byte in
                  (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                      || byte == 0x2E || byte == 0x2D || byte == 0x3A || byte == 0x5B || byte == 0x5D || byte == 0x5F
              })
        else { return nil }
        return value
    }
}
