@testable import IntercomConfig

/// A minimal valid configuration: the three things a board must set.
let minimalConfig = """
    [identity]
    title = "Gate 3"
    latitude = 52.52
    longitude = 13.405

    [backend]
    server_url = "http://127.0.0.1:1337/parse"

    """

/// Loads in-memory files (name, text) in overlay order with a fixed environment.
func load(_ files: [(String, String)], environment: [String: String] = [:], checkSecrets: Bool = true) -> ConfigLoadResult {
    ConfigLoader(environment: environment, checksSecretFiles: checkSecrets).load(files.map { ConfigSource(name: $0.0, text: $0.1) })
}

func load(_ text: String, environment: [String: String] = [:]) -> ConfigLoadResult {
    load([("intercom.toml", text)], environment: environment)
}

/// The problems as `file:line: key.path: message` lines, without columns, for exact comparisons.
func problemLines(_ result: ConfigLoadResult) -> [String] {
    result.problems.map { problem in
        let location = problem.location.map { "\($0.file):\($0.line): " } ?? ""
        return location + (problem.keyPath.isEmpty ? "" : problem.keyPath + ": ") + problem.message
    }
}
