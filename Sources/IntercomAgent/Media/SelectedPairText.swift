/// A candidate line as the "media path" log line shows it: `host 192.168.1.2:50012` (type, address, port),
/// or the line itself when it is not a candidate.
enum SelectedPairText {
    static func describe(_ candidate: String) -> String {
        let fields = candidate.split(separator: " ")
        guard fields.count >= 8, fields[6] == "typ" else { return candidate }
        let address = fields[4].contains(":") ? "[\(fields[4])]" : String(fields[4])
        return "\(fields[7]) \(address):\(fields[5])"
    }
}
