#include "CNiceShims.h"

gulong CIntercomShims_nice_connect_gathering_done(NiceAgent *agent, CIntercomShims_nice_gathering_done_handler handler,
                                                  gpointer context) {
    return g_signal_connect(agent, "candidate-gathering-done", G_CALLBACK(handler), context);
}
gulong CIntercomShims_nice_connect_state_changed(NiceAgent *agent, CIntercomShims_nice_state_changed_handler handler,
                                                 gpointer context) {
    return g_signal_connect(agent, "component-state-changed", G_CALLBACK(handler), context);
}
gulong CIntercomShims_nice_connect_selected_pair(NiceAgent *agent, CIntercomShims_nice_selected_pair_handler handler,
                                                 gpointer context) {
    return g_signal_connect(agent, "new-selected-pair-full", G_CALLBACK(handler), context);
}
gulong CIntercomShims_nice_connect_new_candidate(NiceAgent *agent, CIntercomShims_nice_new_candidate_handler handler,
                                                 gpointer context) {
    return g_signal_connect(agent, "new-candidate-full", G_CALLBACK(handler), context);
}
guint CIntercomShims_nice_disconnect_by_data(NiceAgent *agent, gpointer context) {
    return g_signal_handlers_disconnect_by_data(agent, context);
}
void CIntercomShims_nice_agent_set_stun_server(NiceAgent *agent, const char *host, guint port) {
    g_object_set(G_OBJECT(agent), "stun-server", host, "stun-server-port", port, NULL);
}
