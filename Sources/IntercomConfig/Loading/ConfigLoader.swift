import IntercomPlatform

#if canImport(Glibc)
import Glibc
#endif

/// Finds, reads, parses, merges and validates the configuration: the main file, then `conf.d/*.toml` beside it
/// in name order. Every problem of every file is collected; a configuration is returned only when there are none.
public struct ConfigLoader: Sendable {
    public static let defaultPath = "/etc/intercom/intercom.toml"
    /// Larger files are refused: a config is a few kilobytes, so this is a broken or wrong file.
    public static let maximumFileSize = 1 << 20

    public var environment: [String: String]
    /// Whether secret files must exist and be readable here; false when validating for another machine
    /// (`intercomd provision` checks overlays whose secrets live on the device).
    public var checksSecretFiles: Bool

    public init(environment: [String: String], checksSecretFiles: Bool = true) {
        self.environment = environment
        self.checksSecretFiles = checksSecretFiles
    }

    /// `--config` wins, then `$INTERCOM_CONFIG`, then the default path.
    public func mainPath(explicit: String?) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["INTERCOM_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
        return Self.defaultPath
    }

    /// Reads the main file and its overlays.
    public func readSources(mainPath: String) throws(ConfigUnreadableError) -> [ConfigSource] {
        var sources = [try Self.readSource(mainPath)]
        let overlayDirectory = Self.directory(of: mainPath) + "/conf.d"
        for path in try Self.overlayFiles(in: overlayDirectory) {
            sources.append(try Self.readSource(path))
        }
        return sources
    }

    /// Loads from disk: `readSources` then `load(_:)`.
    public func load(mainPath: String) throws(ConfigUnreadableError) -> ConfigLoadResult {
        load(try readSources(mainPath: mainPath))
    }

    /// Parses and validates sources already in memory, in overlay order.
    public func load(_ sources: [ConfigSource]) -> ConfigLoadResult {
        let files = sources.map(\.name)
        var syntaxProblems: [ConfigProblem] = []
        var merged = TOMLTable()
        for source in sources {
            do {
                let table = try TOMLParser.parse(bytes: source.bytes, file: source.name)
                merged = TOMLMerge.merge(merged, with: table)
            } catch {
                syntaxProblems.append(ConfigProblem(keyPath: "", message: error.message, location: error.location))
            }
        }
        // Values of a file that does not parse are unknown, so checking the rest would only add noise.
        guard syntaxProblems.isEmpty else { return .invalid(syntaxProblems, files: files) }

        let problems = ProblemList()
        let root = ConfigReader(table: merged, path: "", problems: problems,
                                location: sources.first.map { SourceLocation(file: $0.name, line: 1, column: 1) })
        let configuration = IntercomConfiguration(root, secrets: secretResolver(), environment: environment)
        if problems.problems.isEmpty { return .valid(configuration, files: files) }
        return .invalid(problems.problems.sortedForReading(), files: files)
    }

    func secretResolver() -> SecretResolver {
        if !checksSecretFiles {
            return SecretResolver(credentialsDirectory: environment["CREDENTIALS_DIRECTORY"] ?? "/run/credentials", checksFiles: false) { _ in
                .success(Array("unchecked".utf8))
            }
        }
        return SecretResolver(credentialsDirectory: environment["CREDENTIALS_DIRECTORY"].flatMap { $0.isEmpty ? nil : $0 }) { path in
            do throws(SystemCallError) {
                return .success(try AtomicFile.read(path, limit: 64 * 1024))
            } catch {
                return .failure(.init(reason: Self.reason(error), isMissing: error.errno == ENOENT))
            }
        }
    }

    /// `Permission denied (errno 13)`, plus the detail when the platform layer gave one.
    static func reason(_ error: SystemCallError) -> String {
        "\(error.message) (errno \(error.errno))" + (error.detail.map { ": \($0)" } ?? "")
    }

    /// Reads one file under the size limit; the error says why it could not be read.
    public static func readSource(_ path: String) throws(ConfigUnreadableError) -> ConfigSource {
        do throws(SystemCallError) {
            return ConfigSource(name: path, bytes: try AtomicFile.read(path, limit: maximumFileSize))
        } catch {
            throw ConfigUnreadableError(path: path, reason: Self.reason(error))
        }
    }

    /// `*.toml` in name (byte) order; hidden files and editor leftovers are ignored; no directory is fine.
    static func overlayFiles(in directory: String) throws(ConfigUnreadableError) -> [String] {
        guard let handle = opendir(directory) else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return [] }
            throw ConfigUnreadableError(path: directory, reason: String(cString: strerror(code)) + " (errno \(code))")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".toml"), !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }.map { directory + "/" + $0 }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
