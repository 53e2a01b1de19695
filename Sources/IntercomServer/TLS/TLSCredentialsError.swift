/// A certificate or key file `intercom-server` cannot serve HTTPS with: the file and what is wrong with it,
/// on one line (startup prints it and exits non-zero; a SIGHUP reload logs it and keeps the old pair).
public struct TLSCredentialsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let problem: String

    public init(file: String, problem: String) {
        self.file = file
        self.problem = problem
    }

    public var description: String { "\(file): \(problem)" }
}
