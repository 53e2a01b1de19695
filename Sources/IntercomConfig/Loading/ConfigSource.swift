/// One configuration file's bytes and the name it is reported under.
public struct ConfigSource: Sendable, Equatable {
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }

    public init(name: String, text: String) {
        self.init(name: name, bytes: Array(text.utf8))
    }
}

/// A configuration file or directory that could not be read at all (`intercomd check` exits 2).
public struct ConfigUnreadableError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// The outcome of loading: a complete configuration, or every problem found.
public enum ConfigLoadResult: Sendable {
    case valid(IntercomConfiguration, files: [String])
    case invalid([ConfigProblem], files: [String])

    public var configuration: IntercomConfiguration? {
        if case .valid(let configuration, _) = self { return configuration }
        return nil
    }

    public var problems: [ConfigProblem] {
        if case .invalid(let problems, _) = self { return problems }
        return []
    }
}
