@testable import IntercomAgent
import Synchronization

/// WHEP players without media, for the endpoint's tests: each answers with `answer` (or throws `failure`),
/// counts its `stop()`s and keeps the `onState` it was made with, so a test can report its connection.
final class ScriptedWHEPPlayers: WHEPPlayerFactory {
    final class Player: WHEPPlayer {
        let id: String
        let onState: @Sendable (MediaState) -> Void
        let outcome: Result<String, WHEPError>
        private let stops = Atomic<Int>(0)

        init(id: String, onState: @escaping @Sendable (MediaState) -> Void, outcome: Result<String, WHEPError>) {
            self.id = id
            self.onState = onState
            self.outcome = outcome
        }

        var stopCount: Int { stops.load(ordering: .relaxed) }

        func answer(offer: String) async throws(WHEPError) -> String { try outcome.get() }
        func stop() async { stops.add(1, ordering: .relaxed) }
    }

    private let outcome: Mutex<Result<String, WHEPError>>
    private let made = Mutex<[Player]>([])

    init(answer: String = "v=0 answer") {
        outcome = Mutex(.success(answer))
    }

    /// What the next players' `answer` does.
    func answerNext(_ result: Result<String, WHEPError>) { outcome.withLock { $0 = result } }

    var players: [Player] { made.withLock { $0 } }

    func player(_ id: String) -> Player? { players.first { $0.id == id } }

    func makePlayer(id: String, onState: @escaping @Sendable (MediaState) -> Void) -> any WHEPPlayer {
        let player = Player(id: id, onState: onState, outcome: outcome.withLock { $0 })
        made.withLock { $0.append(player) }
        return player
    }
}
