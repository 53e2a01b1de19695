/// What of a received message is spoken: control and format characters (NUL, bell, escape sequences,
/// bidi overrides, zero-width joiners) are dropped, line breaks and tabs become spaces, runs of white space
/// become one, and the text is cut to `limit` Unicode scalars, so a message costs bounded synthesis time
/// and speaker time whatever the sender put in it.
public enum SpeechText {
    /// The default cap, the same 200 characters the agent logs of a message.
    public static let defaultLimit = 200

    public static func clean(_ text: String, limit: Int = defaultLimit) -> String {
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = !scalars.isEmpty
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned: continue
            default: break
            }
            if pendingSpace {
                guard scalars.count + 1 < limit else { break }
                scalars.append(" ")
                pendingSpace = false
            }
            guard scalars.count < limit else { break }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
