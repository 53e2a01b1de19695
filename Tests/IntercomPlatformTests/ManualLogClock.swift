import Foundation
import IntercomPlatform
import Synchronization

/// A `LogClock` that only moves when a test says so.
final class ManualLogClock: Sendable {
    private let monotonic = Mutex(Duration.seconds(1000))
    let wallTime: Date

    init(wallTime: Date = Date(timeIntervalSince1970: 1_795_000_000.123)) {
        self.wallTime = wallTime
    }

    func advance(by duration: Duration) {
        monotonic.withLock { $0 += duration }
    }

    var clock: LogClock {
        LogClock(monotonicNow: { [self] in monotonic.withLock { $0 } }, wallNow: { [wallTime] in wallTime })
    }
}
