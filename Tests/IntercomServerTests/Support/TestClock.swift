import Foundation
import IntercomServer
import Synchronization

/// A wall clock the test moves by hand.
final class TestClock: Sendable {
    private let current: Mutex<Date>

    init(_ start: Date = Date(timeIntervalSince1970: 1_795_000_000)) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(seconds: Double) {
        current.withLock { $0 += seconds }
    }

    var serverClock: ServerClock {
        ServerClock { [self] in now }
    }
}
