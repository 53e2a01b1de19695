import Foundation
import NIOSSL

/// A certificate chain and its private key read from `TLSFiles` and checked: both files readable, both PEM,
/// the key the one the certificate was issued for. `context` is what a handshake uses.
public struct TLSCredentials: Sendable {
    public let files: TLSFiles
    public let chain: [NIOSSLCertificate]
    public let key: NIOSSLPrivateKey
    /// A server context built from the pair (BoringSSL refuses a key that does not match the certificate).
    let context: NIOSSLContext

    /// The leaf certificate's serial number, lowercase hex without leading zeros (what `openssl x509 -serial`
    /// prints, lowercased).
    public var serialHex: String { Self.serialHex(chain[0]) }

    public static func serialHex(_ certificate: NIOSSLCertificate) -> String {
        let hex = certificate.serialNumber.map { byte in byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16) }
        let trimmed = hex.joined().drop { $0 == "0" }
        return trimmed.isEmpty ? "0" : String(trimmed)
    }

    /// The leaf certificate's subject common name, serial and expiry, for the log.
    public var summary: String {
        let leaf = chain[0]
        let subject = leaf.subjectName.first { $0.type == .commonName }?.value ?? "(no CN)"
        let expiry = Date(timeIntervalSince1970: TimeInterval(leaf.notValidAfter))
        return "CN=\(subject), serial \(serialHex), not after \(expiry.formatted(.iso8601))"
    }

    public static func load(_ files: TLSFiles) throws(TLSCredentialsError) -> TLSCredentials {
        let certificateBytes = try read(files.certificateFile)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(certificateBytes)
        } catch {
            throw TLSCredentialsError(file: files.certificateFile, problem: "not a PEM certificate (\(error))")
        }
        guard !chain.isEmpty else {
            throw TLSCredentialsError(file: files.certificateFile, problem: "not a PEM certificate (no BEGIN CERTIFICATE block)")
        }
        let keyBytes = try read(files.keyFile)
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            throw TLSCredentialsError(file: files.keyFile, problem: "not a PEM private key (\(error))")
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: serverConfiguration(chain: chain, key: key))
        } catch {
            throw TLSCredentialsError(
                file: files.keyFile, problem: "this key does not match the certificate in \(files.certificateFile) (\(error))")
        }
        return TLSCredentials(files: files, chain: chain, key: key, context: context)
    }

    static func serverConfiguration(chain: [NIOSSLCertificate], key: NIOSSLPrivateKey) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        // HTTP/1.1 only: the server has no HTTP/2 channel, and WebSocket upgrades need HTTP/1.1.
        configuration.applicationProtocols = ["http/1.1"]
        return configuration
    }

    private static func read(_ path: String) throws(TLSCredentialsError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? error.localizedDescription
            throw TLSCredentialsError(file: path, problem: "cannot read: \(reason)")
        }
    }
}
