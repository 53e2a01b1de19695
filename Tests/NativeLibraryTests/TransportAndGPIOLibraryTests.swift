import CGPIOD
import CNice
import CNiceShims
import COpenSSL
import COpenSSLShims
import GPIO
import Glibc
import Testing
import WebRTC

@Suite("Transport and GPIO C libraries link and answer: libnice, OpenSSL, libgpiod (libsrtp2: WebRTCTests/SRTPSessionTests)")
struct TransportAndGPIOLibraryTests {
    @Test("libnice: an agent with a stream is created on our own GMainContext and released")
    func niceAgent() throws {
        let context = try #require(g_main_context_new())
        defer { g_main_context_unref(context) }
        let agent = try #require(CIntercomShims_nice_agent_new(context, 1))
        let stream = nice_agent_add_stream(agent, 1)
        #expect(stream >= 1)
        #expect(nice_agent_set_stream_name(agent, stream, "audio") != 0)
        CIntercomShims_nice_agent_unref(agent)
        #expect(TransportLibraries.libnice.hasPrefix("0.1."))
    }

    @Test("OpenSSL: a DTLS context takes the SRTP profiles (use_srtp returns 0 on success) and has no timer before a handshake")
    func openSSLDTLS() throws {
        let context = try #require(SSL_CTX_new(DTLS_method()))
        defer { SSL_CTX_free(context) }
        #expect(SSL_CTX_set_tlsext_use_srtp(context, "SRTP_AEAD_AES_128_GCM:SRTP_AES128_CM_SHA1_80") == 0)
        let ssl = try #require(SSL_new(context))
        defer { SSL_free(ssl) }
        let readBIO = try #require(BIO_new(BIO_s_mem()))
        let writeBIO = try #require(BIO_new(BIO_s_mem()))
        #expect(CIntercomShims_BIO_set_mem_eof_return(readBIO, -1) == 1)
        SSL_set_bio(ssl, readBIO, writeBIO)
        var microseconds = -1
        #expect(CIntercomShims_DTLSv1_get_timeout(ssl, &microseconds) == 0)
        SSL_set_connect_state(ssl)
        #expect(SSL_do_handshake(ssl) == -1)
        #expect(SSL_get_error(ssl, -1) == SSL_ERROR_WANT_READ)
        #expect(BIO_ctrl_pending(writeBIO) > 0, "the ClientHello was written to the write BIO")
        #expect(CIntercomShims_DTLSv1_get_timeout(ssl, &microseconds) == 1)
        #expect(microseconds > 0 && microseconds <= 1_000_000)
        #expect(TransportLibraries.openSSL.hasPrefix("OpenSSL 3."))
    }

    @Test("libgpiod: chip listing works on a machine with or without GPIO; a non-chip is refused")
    func gpiod() throws {
        let chips = try GPIOInventory.chips()
        #expect(chips.allSatisfy { !$0.name.isEmpty && $0.lines.count >= 0 })
        #expect(gpiod_chip_open("/dev/null") == nil)
        #expect(GPIOInventory.libgpiodVersion.hasPrefix("1.6"))
    }
}
