/// Spells input back in error messages, shortened so a megabyte of hostile input cannot become a
/// megabyte of message.
enum TOMLDisplay {
    static let maximumLength = 40
    static let maximumPathLength = 100

    /// A key part as TOML would write it: bare when possible, else a literal `'…'` key (keeps messages
    /// that wrap the whole key in double quotes readable), else a basic `"…"` key with escapes.
    static func keyPart(_ name: String) -> String {
        let isBare = !name.isEmpty && name.utf8.allSatisfy(TOMLByte.isBareKey)
        if isBare { return shortened(name) }
        let isLiteralSafe = name.utf8.allSatisfy { $0 != TOMLByte.apostrophe && !TOMLByte.isForbiddenControl($0) }
        if isLiteralSafe { return "'" + shortened(name) + "'" }
        var quoted = "\""
        for scalar in shortened(name).unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\u{20}"..."\u{7E}": quoted.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += "\\u" + TOMLByte.hex(scalar.value, digits: 4)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    static func shortened(_ text: String, to length: Int = maximumLength) -> String {
        text.count <= length ? text : String(text.prefix(length)) + "…"
    }
}
