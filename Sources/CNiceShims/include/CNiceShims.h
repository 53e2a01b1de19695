// libnice's macros, variadic GObject calls and signals as plain C functions (Swift cannot import them).
// Each function mirrors one C call; the `CIntercomShims_` prefix marks every shim function in the package.
#pragma once
#include <nice/agent.h>

/// `nice_agent_new_full` plus the `g_object_set` (variadic) properties a WebRTC endpoint needs:
/// RFC 5245 compatibility, full mode, trickle, consent freshness, no UPnP, no ICE-TCP.
NiceAgent *CIntercomShims_nice_agent_new(GMainContext *context, gboolean controlling);
/// `g_object_unref` takes a gpointer; exposed typed so Swift does not juggle OpaquePointer casts.
void CIntercomShims_nice_agent_unref(NiceAgent *agent);

// ── libnice signals as typed callbacks ────────────────────────────────────────────────────────────
// `g_signal_connect` is a macro over `g_signal_connect_data`, whose handler is an untyped `GCallback`.
// Each connector below takes the handler with the signal's exact C signature (user data last) and
// connects it with no destroy notify: the caller keeps `context` alive until it has disconnected.

typedef void (*CIntercomShims_nice_gathering_done_handler)(NiceAgent *agent, guint stream_id, gpointer context);
typedef void (*CIntercomShims_nice_state_changed_handler)(NiceAgent *agent, guint stream_id, guint component_id,
                                                          guint state, gpointer context);
typedef void (*CIntercomShims_nice_selected_pair_handler)(NiceAgent *agent, guint stream_id, guint component_id,
                                                          NiceCandidate *local, NiceCandidate *remote,
                                                          gpointer context);
typedef void (*CIntercomShims_nice_new_candidate_handler)(NiceAgent *agent, NiceCandidate *candidate,
                                                          gpointer context);

/// `g_signal_connect(agent, "candidate-gathering-done", handler, context)`. Returns the handler id (0 on failure).
gulong CIntercomShims_nice_connect_gathering_done(NiceAgent *agent, CIntercomShims_nice_gathering_done_handler handler,
                                                  gpointer context);
/// `g_signal_connect(agent, "component-state-changed", handler, context)`.
gulong CIntercomShims_nice_connect_state_changed(NiceAgent *agent, CIntercomShims_nice_state_changed_handler handler,
                                                 gpointer context);
/// `g_signal_connect(agent, "new-selected-pair-full", handler, context)`.
gulong CIntercomShims_nice_connect_selected_pair(NiceAgent *agent, CIntercomShims_nice_selected_pair_handler handler,
                                                 gpointer context);
/// `g_signal_connect(agent, "new-candidate-full", handler, context)`.
gulong CIntercomShims_nice_connect_new_candidate(NiceAgent *agent, CIntercomShims_nice_new_candidate_handler handler,
                                                 gpointer context);
/// `g_signal_handlers_disconnect_by_data` is a macro. Returns how many handlers were disconnected.
guint CIntercomShims_nice_disconnect_by_data(NiceAgent *agent, gpointer context);

/// `g_object_set(agent, "stun-server", host, "stun-server-port", port, NULL)` (variadic).
void CIntercomShims_nice_agent_set_stun_server(NiceAgent *agent, const char *host, guint port);
