import CGPIOD
import CIntercomShims
import CNice
import COpenSSL
import CSRTP
import Glibc
import GPIO
import Testing
import WebRTC

@Suite("Transport and GPIO C libraries link and answer: libnice, libsrtp2, OpenSSL, libgpiod")
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

    @Test("libsrtp2: AES-CM-128/HMAC-SHA1-80 protect then unprotect gives the packet back")
    func srtpRoundTrip() throws {
        #expect(srtp_init() == srtp_err_status_ok)
        var key = [UInt8](repeating: 0, count: 30)
        for index in key.indices { key[index] = UInt8(index * 7 & 0xFF) }
        func session(_ direction: srtp_ssrc_type_t) throws -> srtp_t? {
            var policy = srtp_policy_t()
            srtp_crypto_policy_set_rtp_default(&policy.rtp)
            srtp_crypto_policy_set_rtcp_default(&policy.rtcp)
            policy.ssrc.type = direction
            policy.window_size = 1024
            var created: srtp_t?
            let status = key.withUnsafeMutableBufferPointer { buffer in
                policy.key = buffer.baseAddress
                return srtp_create(&created, &policy)
            }
            #expect(status == srtp_err_status_ok)
            return created
        }
        let sender = try session(ssrc_any_outbound)
        let receiver = try session(ssrc_any_inbound)
        defer {
            srtp_dealloc(sender)
            srtp_dealloc(receiver)
        }
        // RTP header: V=2, PT=96, seq=1, ts=3000, ssrc=0x11223344, then 20 payload bytes.
        let plain: [UInt8] = [0x80, 96, 0, 1, 0, 0, 0x0B, 0xB8, 0x11, 0x22, 0x33, 0x44] + (0..<20).map { UInt8($0) }
        var buffer = plain + [UInt8](repeating: 0, count: Int(SRTP_MAX_TRAILER_LEN))
        var length = Int32(plain.count)
        #expect(buffer.withUnsafeMutableBytes { srtp_protect(sender, $0.baseAddress, &length) } == srtp_err_status_ok)
        #expect(length == Int32(plain.count + 10))
        #expect(Array(buffer[12..<32]) != Array(plain[12...]))
        #expect(buffer.withUnsafeMutableBytes { srtp_unprotect(receiver, $0.baseAddress, &length) } == srtp_err_status_ok)
        #expect(Array(buffer[0..<Int(length)]) == plain)
        // Replaying the same protected packet is refused (SSRC/sequence numbers must never repeat).
        var replay = plain + [UInt8](repeating: 0, count: Int(SRTP_MAX_TRAILER_LEN))
        var replayLength = Int32(plain.count)
        #expect(replay.withUnsafeMutableBytes { srtp_protect(sender, $0.baseAddress, &replayLength) } == srtp_err_status_replay_fail)
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
