import IntercomPlatform
import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Secrets only through files and systemd credentials")
struct ConfigSecretTests {
    private func config(_ backendLines: String) -> String {
        "[identity]\ntitle = \"G\"\nlatitude = 0\nlongitude = 0\n[backend]\nserver_url = \"http://h/parse\"\n" + backendLines
    }

    @Test("an absolute password_file that is readable gives a password login")
    func absoluteFile() throws {
        let directory = try TemporaryDirectory()
        try directory.write("s3cret\n", to: "password", permissions: 0o600)
        let configuration = try #require(load(config("username = \"gate-3\"\npassword_file = \"\(directory.path("password"))\"\n")).configuration)
        #expect(configuration.backend.login == .password(username: "gate-3", passwordFile: directory.path("password")))
    }

    @Test("an unreadable or empty secret file is a problem with the reason")
    func unreadableAndEmpty() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.path("nope")
        #expect(problemLines(load(config("username = \"u\"\npassword_file = \"\(missing)\"\n"))) == [
            "intercom.toml:8: backend.password_file: cannot read secret file \(missing): No such file or directory (errno 2)",
        ])
        try directory.write("\n", to: "empty")
        #expect(problemLines(load(config("username = \"u\"\npassword_file = \"\(directory.path("empty"))\"\n"))) == [
            "intercom.toml:8: backend.password_file: secret file \(directory.path("empty")) is empty",
        ])
        try Directories.createIfMissing(directory.path("dir"), permissions: 0o700)
        let lines = problemLines(load(config("username = \"u\"\npassword_file = \"\(directory.path("dir"))\"\n")))
        #expect(lines.count == 1 && lines[0].contains("cannot read secret file"))
    }

    @Test("a relative password_file is resolved in $CREDENTIALS_DIRECTORY, and refused without it")
    func relativeFile() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("pw", to: "gate.password")
        let text = config("username = \"u\"\npassword_file = \"gate.password\"\n")
        let configuration = try #require(load(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path]).configuration)
        #expect(configuration.backend.login == .password(username: "u", passwordFile: credentials.path("gate.password")))
        #expect(problemLines(load(text)) == [
            "intercom.toml:8: backend.password_file: relative path \"gate.password\" needs $CREDENTIALS_DIRECTORY (systemd LoadCredential=); use an absolute path otherwise",
        ])
    }

    @Test("without password_file the systemd credential backend.password is used; without either, username is refused")
    func credentialFallback() throws {
        let credentials = try TemporaryDirectory()
        let text = config("username = \"u\"\n")
        #expect(problemLines(load(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path])) == [
            "intercom.toml:5: backend.password_file: backend.username is set, so a password is needed: set password_file or provide the systemd credential \"backend.password\"",
        ])
        try credentials.write("pw", to: "backend.password")
        let configuration = try #require(load(text, environment: ["CREDENTIALS_DIRECTORY": credentials.path]).configuration)
        #expect(configuration.backend.login == .password(username: "u", passwordFile: credentials.path("backend.password")))
    }

    @Test("password_file without a username is a mistake, not silently anonymous")
    func fileWithoutUser() {
        #expect(problemLines(load(config("password_file = \"/etc/passwd\"\n"))) == [
            "intercom.toml:7: backend.password_file: is set but backend.username is not",
        ])
    }

    @Test("inline passwords do not exist: a password key is unknown")
    func noInlinePassword() {
        #expect(problemLines(load(config("username = \"u\"\npassword = \"hunter2\"\n"), environment: [:])).contains(
            "intercom.toml:8: backend.password: unknown key \"password\" (did you mean \"password_file\"?)"))
    }
}

@Suite("Secrets: anonymous devices under the shipped unit")
struct AnonymousCredentialTests {
    @Test("an anonymous device ignores an empty backend.password credential (the unit's SetCredential fallback)")
    func anonymousIgnoresEmptyCredential() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("", to: "backend.password")
        let configuration = try #require(load(minimalConfig, environment: ["CREDENTIALS_DIRECTORY": credentials.path]).configuration)
        #expect(configuration.backend.login == .anonymous)
    }

    @Test("a username with an empty credential gets exactly one problem")
    func emptyCredentialOneProblem() throws {
        let credentials = try TemporaryDirectory()
        try credentials.write("", to: "backend.password")
        let lines = problemLines(load(minimalConfig.replacingOccurrences(of: "[backend]\n", with: "[backend]\nusername = \"gate\"\n"),
                                      environment: ["CREDENTIALS_DIRECTORY": credentials.path]))
        #expect(lines == ["intercom.toml:6: backend.password_file: secret file \(credentials.path)/backend.password is empty"])
    }
}
