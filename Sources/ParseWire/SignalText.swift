/// The limits of a call's text message (`{"type":"text","id","text"}`, issue #22), one owner for the device,
/// the server and the tests: `text` is 1…500 Unicode scalars (what JavaScript's `[...text].length` counts),
/// with no control character but newline (U+000A) — a message with one is refused, not stripped; `id` is
/// 1…64 scalars, printable.
public enum SignalText {
    public static let maxScalars = 500
    public static let maxIDScalars = 64

    /// Checks a message's text; `path` names it in the error.
    public static func checkText(_ text: String, path: String) throws(ParseWireError) {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty else { throw .invalidValue(path: path, reason: "empty") }
        guard scalars.count <= maxScalars else {
            throw .invalidValue(path: path, reason: "longer than \(maxScalars) characters")
        }
        if scalars.contains(where: { $0 != "\n" && isControl($0) }) {
            throw .invalidValue(path: path, reason: "control character other than newline")
        }
    }

    /// Checks a message's id (the acknowledgement repeats it).
    public static func checkID(_ id: String, path: String) throws(ParseWireError) {
        let scalars = id.unicodeScalars
        guard !scalars.isEmpty else { throw .invalidValue(path: path, reason: "empty") }
        guard scalars.count <= maxIDScalars else {
            throw .invalidValue(path: path, reason: "longer than \(maxIDScalars) characters")
        }
        if scalars.contains(where: isControl) { throw .invalidValue(path: path, reason: "control character") }
    }

    /// C0, DEL and C1 (Unicode general category Cc).
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
