/// The limits of the camera signals (`camera`, `cameras`, `camera-error`, issue #22), one owner for the
/// device's `[video] sources` names, the wire and the tests: a name is 1…32 characters of `a-z`, `0-9`, `-`
/// and `_`; a device advertises 1…8 distinct names; an error's reason is 1…200 characters without control
/// characters.
public enum SignalCamera {
    public static let maxNameLength = 32
    public static let maxCameras = 8
    public static let maxReasonScalars = 200

    /// Whether `name` is a valid camera name (what `[video] sources` accepts).
    public static func isValidName(_ name: String) -> Bool {
        let scalars = name.unicodeScalars
        return !scalars.isEmpty && scalars.count <= maxNameLength
            && scalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }

    /// Checks a camera name; `path` names it in the error.
    public static func checkName(_ name: String, path: String) throws(ParseWireError) {
        guard isValidName(name) else {
            throw .invalidValue(path: path, reason: "a camera name is 1…\(maxNameLength) characters of a-z, 0-9, - and _")
        }
    }

    /// Checks an advertised camera list and the active one among it.
    public static func checkList(_ names: [String], active: String, path: String) throws(ParseWireError) {
        guard (1...maxCameras).contains(names.count) else {
            throw .invalidValue(path: path + ".names", reason: "1…\(maxCameras) cameras")
        }
        for (index, name) in names.enumerated() { try checkName(name, path: path + ".names[\(index)]") }
        guard Set(names).count == names.count else { throw .invalidValue(path: path + ".names", reason: "duplicate name") }
        guard names.contains(active) else { throw .invalidValue(path: path + ".active", reason: "not among names") }
    }

    /// Checks an error's reason.
    public static func checkReason(_ reason: String, path: String) throws(ParseWireError) {
        let scalars = reason.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maxReasonScalars else {
            throw .invalidValue(path: path, reason: "1…\(maxReasonScalars) characters")
        }
        if scalars.contains(where: SignalText.isControl) { throw .invalidValue(path: path, reason: "control character") }
    }
}
