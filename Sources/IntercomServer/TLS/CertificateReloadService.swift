import Logging
import ServiceLifecycle
import UnixSignals

/// Reloads the served certificate on SIGHUP (`kill -HUP`, `systemctl reload`): one info line with the new
/// certificate on success, one error line naming the file on failure (the old certificate stays). A plain
/// HTTP server traps SIGHUP too and says there is nothing to reload, so a reload never kills it.
struct CertificateReloadService: Service {
    let certificate: ServerCertificate?
    let logger: Logger

    func run() async throws {
        let hangups = await UnixSignalsSequence(trapping: .sighup)
        await cancelWhenGracefulShutdown {
            for await _ in hangups {
                guard let certificate else {
                    logger.info("SIGHUP: nothing to reload (plain HTTP: no tls_cert_file configured)")
                    continue
                }
                do {
                    let loaded = try certificate.reload()
                    logger.info("TLS certificate reloaded: \(loaded.summary)")
                } catch {
                    logger.error("TLS certificate reload failed, still serving the previous one: \(error)")
                }
            }
        }
    }
}
