#include "CNiceShims.h"

NiceAgent *CIntercomShims_nice_agent_new(GMainContext *context, gboolean controlling) {
    // No NICE_AGENT_OPTION_CONSENT_FRESHNESS: libnice 0.1.21 (Debian 12) expires consent after 10 s instead of
    // RFC 7675's 30 s and turns one late check response into FAILED, which killed calls under 10 % loss.
    // PeerConnection detects a silent peer itself (`inactivityTimeout`).
    NiceAgentOption options = NICE_AGENT_OPTION_ICE_TRICKLE;
    NiceAgent *agent = nice_agent_new_full(context, NICE_COMPATIBILITY_RFC5245, options);
    if (agent == NULL) return NULL;
    g_object_set(G_OBJECT(agent), "upnp", FALSE, "ice-tcp", FALSE, "controlling-mode", controlling, NULL);
    return agent;
}
void CIntercomShims_nice_agent_unref(NiceAgent *agent) { g_object_unref(agent); }
