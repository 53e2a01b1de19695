import Foundation
import IntercomServer
import IntercomTestSupport
import NIOSSL
import Testing

/// `intercom-server` serving HTTPS itself: real handshakes against certificates made by `openssl` for a
/// throwaway CA, the clear errors for files it cannot serve, and the certificate swapped while it runs.
@Suite struct HTTPSServerTests {
    @Test func healthAnswersOverHTTPSToAClientTrustingTheCA() async throws {
        let certificates = try TestCertificates()
        let certificate = try ServerCertificate(files: try certificates.issue("server", serial: "1a01"))
        try await Self.serving(certificate) { port in
            let answer = try await TLSProbe.get("/parse/health", port: port, trusting: certificates.caFile)
            #expect(answer.text.hasPrefix("HTTP/1.1 200"), "\(answer.text.prefix(200))")
            #expect(answer.text.contains("\"status\":\"ok\""))
            #expect(answer.peerCertificate.map { TLSCredentials.serialHex($0) } == "1a01")
        }
    }

    @Test func plainHTTPToTheTLSPortIsNotServed() async throws {
        let certificates = try TestCertificates()
        let certificate = try ServerCertificate(files: try certificates.issue("server", serial: "1a02"))
        try await Self.serving(certificate) { port in
            // The server answers a TLS handshake failure (an alert, or nothing) and closes: never HTTP.
            let answer = try? await TLSProbe.get("/parse/health", port: port, trusting: nil)
            #expect(!(answer?.text.hasPrefix("HTTP/") ?? false), "\(answer?.text.prefix(200) ?? "")")
        }
    }

    @Test func reloadServesTheNewCertificateToNewConnectionsAndAFailedOneKeepsTheOld() async throws {
        let certificates = try TestCertificates()
        let files = try certificates.issue("server", serial: "1b01")
        let certificate = try ServerCertificate(files: files)
        try await Self.serving(certificate) { port in
            func servedSerial() async throws -> String? {
                try await TLSProbe.get("/parse/health", port: port, trusting: certificates.caFile)
                    .peerCertificate.map { TLSCredentials.serialHex($0) }
            }
            #expect(try await servedSerial() == "1b01")

            // New files in place, then the reload SIGHUP triggers.
            try certificates.issue("next", serial: "1b02")
            try Self.copy(certificates.directory.path("next.pem"), over: files.certificateFile)
            try Self.copy(certificates.directory.path("next.key"), over: files.keyFile)
            let reloaded = try certificate.reload()
            #expect(reloaded.serialHex == "1b02")
            #expect(try await servedSerial() == "1b02")

            // A broken certificate file: the reload fails naming it, and 1b02 is still served.
            try certificates.directory.write("not a certificate\n", to: "server.pem")
            #expect(throws: TLSCredentialsError.self) { try certificate.reload() }
            #expect(try await servedSerial() == "1b02")
            #expect(certificate.credentials.serialHex == "1b02")
        }
    }

    @Test func filesThatCannotBeServedGiveOneLineNamingTheFile() throws {
        let certificates = try TestCertificates()
        let good = try certificates.issue("good", serial: "1c01")
        let other = try certificates.issue("other", serial: "1c02")
        try certificates.directory.write("hello\n", to: "garbage.pem")
        let missing = certificates.directory.path("missing.pem")
        let garbage = certificates.directory.path("garbage.pem")

        func problem(_ files: TLSFiles) -> TLSCredentialsError? {
            do { _ = try TLSCredentials.load(files); return nil } catch { return error }
        }
        let unreadable = problem(TLSFiles(certificateFile: missing, keyFile: good.keyFile))
        #expect(unreadable?.file == missing)
        #expect(unreadable?.problem.hasPrefix("cannot read") == true, "\(String(describing: unreadable))")

        let notPEM = problem(TLSFiles(certificateFile: garbage, keyFile: good.keyFile))
        #expect(notPEM?.file == garbage)
        #expect(notPEM?.problem.hasPrefix("not a PEM certificate") == true, "\(String(describing: notPEM))")

        let keyNotPEM = problem(TLSFiles(certificateFile: good.certificateFile, keyFile: garbage))
        #expect(keyNotPEM?.file == garbage)
        #expect(keyNotPEM?.problem.hasPrefix("not a PEM private key") == true, "\(String(describing: keyNotPEM))")

        let mismatch = problem(TLSFiles(certificateFile: good.certificateFile, keyFile: other.keyFile))
        #expect(mismatch?.file == other.keyFile)
        #expect(mismatch?.problem.contains("does not match the certificate in \(good.certificateFile)") == true,
                "\(String(describing: mismatch))")

        for error in [unreadable, notPEM, keyNotPEM, mismatch] {
            #expect(error.map { !$0.description.contains("\n") } == true)
        }
        #expect(problem(good) == nil)
    }

    /// Runs `body` with the port of a live HTTPS server serving `certificate`.
    static func serving(_ certificate: ServerCertificate, _ body: @Sendable (Int) async throws -> Void) async throws {
        let server = try await TestServer()
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let application = ServerApplication.make(backend: server.backend, logger: TestServer.logger, sweeping: false,
                                                 certificate: certificate) { port in portSink.yield(port ?? 0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await application.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else { throw TestFailure("the HTTPS server did not start") }
            try await body(port)
            group.cancelAll()
            while let _ = try? await group.next() {}
        }
    }

    static func copy(_ source: String, over destination: String) throws {
        try FileManager.default.removeItem(atPath: destination)
        try FileManager.default.moveItem(atPath: source, toPath: destination)
    }
}
