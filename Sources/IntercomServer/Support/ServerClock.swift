import Foundation

/// The wall clock the server reads for timestamps, expiries and sweeps; tests inject their own.
public struct ServerClock: Sendable {
    private let read: @Sendable () -> Date

    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    public static let system = ServerClock { Date() }

    public var now: Date { read() }

    /// Milliseconds since 1970, the unit of every stored timestamp.
    var milliseconds: Int64 { Int64((now.timeIntervalSince1970 * 1000).rounded(.down)) }
}
