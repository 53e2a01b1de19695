import Foundation
import IntercomServer
import IntercomTestSupport

/// A throwaway CA and server certificates signed by it, made with the `openssl` command-line tool (Debian
/// package `openssl`) in a temporary directory: real PEM files for real TLS handshakes.
final class TestCertificates: Sendable {
    let directory: TemporaryDirectory
    var caFile: String { directory.path("ca.pem") }

    init() throws {
        directory = try TemporaryDirectory(prefix: "tls-test")
        try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", directory.path("ca.key"), "-out", caFile, "-days", "2", "-subj", "/CN=Intercom Test CA"])
        try directory.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n", to: "san.cnf")
    }

    /// A server certificate for 127.0.0.1 with `serial` (hex), signed by the CA: `<name>.pem` and `<name>.key`.
    @discardableResult
    func issue(_ name: String, serial: String) throws -> TLSFiles {
        let files = TLSFiles(certificateFile: directory.path("\(name).pem"), keyFile: directory.path("\(name).key"))
        try Self.openssl(["req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                          "-keyout", files.keyFile, "-out", directory.path("\(name).csr"), "-subj", "/CN=127.0.0.1"])
        try Self.openssl(["x509", "-req", "-in", directory.path("\(name).csr"), "-CA", caFile,
                          "-CAkey", directory.path("ca.key"), "-set_serial", "0x" + serial, "-days", "2",
                          "-extfile", directory.path("san.cnf"), "-out", files.certificateFile])
        return files
    }

    /// Runs `openssl ARGS`; a missing tool or a failure is a thrown `TestFailure` saying which and why.
    static func openssl(_ arguments: [String]) throws {
        guard let tool = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"]
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw TestFailure("these tests need the openssl command-line tool: apt install openssl (Debian package openssl)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("openssl \(arguments.prefix(2).joined(separator: " ")) failed: "
                + String(decoding: message, as: UTF8.self))
        }
    }
}
