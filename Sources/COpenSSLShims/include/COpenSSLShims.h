// OpenSSL's macros, variadic functions and callbacks for DTLS as plain C functions (Swift cannot import them).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <stdint.h>
#include <openssl/ssl.h>
#include <openssl/evp.h>

// ── Datagram-preserving write BIO ─────────────────────────────────────────────────────────────────
// OpenSSL calls BIO_write once per DTLS datagram; `BIO_s_mem` would hand them back merged, so this
// BIO (built with `BIO_meth_new`, as Janus dtls-bio.c does) queues every write as its own datagram.

/// A new datagram write BIO whose ctrl answers `BIO_CTRL_DGRAM_QUERY_MTU` with `mtu`. NULL on failure.
BIO *CIntercomShims_datagram_bio_new(long mtu);
/// Length of the oldest queued datagram, or -1 when the queue is empty.
long CIntercomShims_datagram_bio_next_length(BIO *bio);
/// Copies the oldest datagram into `out` and drops it. Returns its length, or -1 when the queue is empty
/// or `capacity` is too small (the datagram then stays queued).
long CIntercomShims_datagram_bio_pop(BIO *bio, unsigned char *out, long capacity);

// ── Macros and variadic functions Swift cannot import ─────────────────────────────────────────────

/// `DTLS_set_link_mtu` is a macro around `SSL_ctrl`. Returns 1 on success.
long CIntercomShims_DTLS_set_link_mtu(SSL *ssl, long mtu);
/// `SSL_CTX_set1_groups_list` is a macro around `SSL_CTX_ctrl`. Returns 1 on success.
long CIntercomShims_SSL_CTX_set1_groups_list(SSL_CTX *context, const char *groups);
/// `SSL_CTX_set_min_proto_version` is a macro around `SSL_CTX_ctrl`. Returns 1 on success.
long CIntercomShims_SSL_CTX_set_min_proto_version(SSL_CTX *context, long version);
/// `SSL_OP_NO_TICKET` is a function-like macro expression.
uint64_t CIntercomShims_SSL_OP_NO_TICKET(void);
/// `SSL_OP_NO_QUERY_MTU` is a function-like macro expression.
uint64_t CIntercomShims_SSL_OP_NO_QUERY_MTU(void);
/// `EVP_EC_gen` is a macro around the variadic `EVP_PKEY_Q_keygen`. NULL on failure.
EVP_PKEY *CIntercomShims_EVP_EC_gen(const char *curve);
/// `DTLS_set_timer_cb` with a callback that starts at `initial_microseconds` and doubles up to 60 s
/// (RFC 6347 §4.2.4.1). The callback has no user pointer, so the value lives in the SSL's ex_data.
/// Values under 20 ms are raised to 20 ms: OpenSSL treats less than 15 ms left as already expired.
int CIntercomShims_DTLS_set_initial_timeout(SSL *ssl, unsigned int initial_microseconds);

/// `DTLSv1_get_timeout` is a macro around `SSL_ctrl`. Returns 1 and fills `*microseconds` when a timer runs.
long CIntercomShims_DTLSv1_get_timeout(SSL *ssl, long *microseconds);
/// `DTLSv1_handle_timeout` is a macro around `SSL_ctrl`.
long CIntercomShims_DTLSv1_handle_timeout(SSL *ssl);
/// `BIO_set_mem_eof_return` is a macro around `BIO_ctrl`.
long CIntercomShims_BIO_set_mem_eof_return(BIO *bio, long value);
