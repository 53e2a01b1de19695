import IntercomConfig
import ServerTestSupport

/// A device configuration for tests: "Gate 3" at 52.52, 13.405 with its backend at `serverURL`, plus `extra`
/// TOML (call policy, GPIO lines…), loaded the way `intercomd` loads its file.
enum TestDeviceConfiguration {
    static func load(serverURL: String, _ extra: String = "") throws -> IntercomConfiguration {
        let text = """
            [identity]
            title = "Gate 3"
            latitude = 52.52
            longitude = 13.405

            [backend]
            server_url = "\(serverURL)"

            \(extra)
            """
        let result = ConfigLoader(environment: [:], checksSecretFiles: false)
            .load([ConfigSource(name: "intercom.toml", text: text)])
        guard let configuration = result.configuration else {
            throw TestFailure("the test's configuration is invalid: \(result.problems)")
        }
        return configuration
    }
}
