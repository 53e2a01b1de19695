import CNice
import COpenSSL
import CSRTP

/// Versions of the transport libraries actually loaded at run time (`intercomd version`, bug reports).
public enum TransportLibraries {
    /// `OpenSSL_version(OPENSSL_VERSION)`, e.g. "OpenSSL 3.0.x …".
    public static var openSSL: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
    /// `srtp_get_version_string()`, e.g. "libsrtp2 2.5.0".
    public static var libsrtp2: String { String(cString: srtp_get_version_string()) }
    /// libnice has no run-time version call; the headers' version is what we were built against.
    public static var libnice: String { "\(NICE_VERSION_MAJOR).\(NICE_VERSION_MINOR).\(NICE_VERSION_MICRO)" }
}
