import Foundation

/// The PostgreSQL database the server tests run against instead of SQLite, when the environment names
/// one (`INTERCOM_TEST_DATABASE_URL=postgres://…`, set by `Tests/postgres/run.sh`).
public enum TestPostgres {
    public static var baseURL: String? {
        ProcessInfo.processInfo.environment["INTERCOM_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// `baseURL` with a schema of its own for one test server (created by the server's migration), so tests
    /// running side by side never see each other's rows; nil when the tests run on SQLite.
    public static func freshURL() -> String? {
        guard let base = baseURL else { return nil }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        return base + (base.contains("?") ? "&" : "?") + "search_path=" + schema
    }
}
