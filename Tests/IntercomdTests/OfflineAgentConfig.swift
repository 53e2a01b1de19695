import IntercomTestSupport

/// An `intercomd run` config whose backend never answers (port 1): the agent starts, reports itself offline
/// and runs everything that needs no backend. `extra` adds whole sections. Returns the config's path.
func writeOfflineAgentConfig(in directory: TemporaryDirectory, extra: String = "") throws -> String {
    try directory.write("""
        [identity]
        title = "Gate 3"
        latitude = 52.5
        longitude = 13.4
        [backend]
        server_url = "http://127.0.0.1:1/parse"
        [state]
        directory = "\(directory.path("state"))"
        \(extra)
        """, to: "intercom.toml")
    return directory.path("intercom.toml")
}
