import ParseClient
import ParseWire

extension BackendSession {
    /// Deletes an `ActiveSessions` row: an incoming row as the intake takes it, or our own outgoing row the
    /// callee never took. Returns false when the row was already gone (the other side deleted it first).
    func deleteCallRow(_ objectId: String) async throws(ParseClientError) -> Bool {
        do throws(ParseClientError) {
            _ = try await client.send(EmptyResponse.self) { $0.deleteCall(objectId: objectId, requestId: $1) }
            return true
        } catch .server(let error) where error.knownCode == .objectNotFound {
            return false
        }
    }
}
