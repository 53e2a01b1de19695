import Foundation
import PostgresNIO

/// Where the fleet's rows live, read from `database_url`:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?search_path=SCHEMA&sslmode=disable|require]`.
/// `search_path` puts every table of this server in its own schema (created if missing), so several
/// deployments (or tests) can share one database. `sslmode` follows libpq's names: `require` encrypts without
/// checking the server's certificate (as libpq does), `verify-full` also checks it against the system's
/// roots and the host name.
public struct PostgresSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var schema: String
    public var tls: TLSMode

    public enum TLSMode: String, Sendable, Equatable {
        case disable
        case require
        case verifyFull = "verify-full"
    }

    public init(url text: String) throws(StorageError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme) else {
            throw .badURL("expected postgres://USER:PASSWORD@HOST:PORT/DATABASE, got \(Self.redacted(text))")
        }
        guard let host = components.host, !host.isEmpty else { throw .badURL("no host in \(Self.redacted(text))") }
        guard let username = components.percentEncodedUser?.removingPercentEncoding, !username.isEmpty else {
            throw .badURL("no user in \(Self.redacted(text))")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw .badURL("no database name (the path) in \(Self.redacted(text))")
        }
        self.host = host
        port = components.port ?? 5432
        self.username = username
        password = components.percentEncodedPassword?.removingPercentEncoding
        self.database = database
        schema = "public"
        tls = .disable
        for item in components.queryItems ?? [] {
            switch (item.name, item.value ?? "") {
            case ("search_path", let name):
                guard Self.isPlainIdentifier(name) else {
                    throw .badURL("search_path must be letters, digits and _ (starting with a letter or _), got \(name)")
                }
                schema = name
            case ("sslmode", let mode):
                guard let chosen = TLSMode(rawValue: mode) else {
                    throw .badURL("sslmode \(mode) is not supported (disable, require or verify-full)")
                }
                tls = chosen
            case (let name, _): throw .badURL("unknown parameter \(name) (search_path, sslmode)")
            }
        }
    }

    /// The URL without its password, for logs and `/health`.
    public var redactedURL: String {
        "postgres://\(username)@\(host):\(port)/\(database)" + (schema == "public" ? "" : "?search_path=\(schema)")
    }

    /// A schema name that needs no quoting in either engine's SQL (it is spliced into statements).
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.count <= 63 else { return false }
        let letters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz_")
        let rest = letters.union(CharacterSet(charactersIn: "0123456789"))
        return letters.contains(first) && name.unicodeScalars.allSatisfy(rest.contains)
    }

    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? "(unreadable)"
    }

    /// `applicationName` names the connection in `pg_stat_activity` (the bus listener's says its instance is up).
    func connectionConfiguration(applicationName: String = "intercom-server") throws -> PostgresConnection.Configuration {
        var client = TLSConfiguration.makeClientConfiguration()
        let tls: PostgresConnection.Configuration.TLS
        switch self.tls {
        case .disable:
            tls = .disable
        case .require:
            client.certificateVerification = .none
            tls = .require(try NIOSSLContext(configuration: client))
        case .verifyFull:
            tls = .require(try NIOSSLContext(configuration: client))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: tls)
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return configuration
    }
}
