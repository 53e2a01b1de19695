#pragma once
#include <nice/agent.h>
#include <openssl/ssl.h>

/// `nice_agent_new_full` plus the `g_object_set` (variadic) properties a WebRTC endpoint needs:
/// RFC 5245 compatibility, full mode, trickle, consent freshness, no UPnP, no ICE-TCP.
NiceAgent *CIntercomShims_nice_agent_new(GMainContext *context, gboolean controlling);
/// `g_object_unref` takes a gpointer; exposed typed so Swift does not juggle OpaquePointer casts.
void CIntercomShims_nice_agent_unref(NiceAgent *agent);

/// `DTLSv1_get_timeout` is a macro around `SSL_ctrl`. Returns 1 and fills `*microseconds` when a timer runs.
long CIntercomShims_DTLSv1_get_timeout(SSL *ssl, long *microseconds);
/// `DTLSv1_handle_timeout` is a macro around `SSL_ctrl`.
long CIntercomShims_DTLSv1_handle_timeout(SSL *ssl);
/// `BIO_set_mem_eof_return` is a macro around `BIO_ctrl`.
long CIntercomShims_BIO_set_mem_eof_return(BIO *bio, long value);
