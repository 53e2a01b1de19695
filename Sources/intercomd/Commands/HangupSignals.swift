import Dispatch
import Glibc

/// SIGINT and SIGTERM as an async sequence for `intercomd call`: a Ctrl-C (or a test's `kill -INT`) ends the
/// call the way the hangup button does, so the other side hears a bye and the report still prints.
final class HangupSignals {
    let arrivals: AsyncStream<Void>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (arrivals, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.arrivals = arrivals
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)  // delivered to the dispatch source instead of killing the process
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
    }

    /// Stops listening; the default dispositions come back.
    func cancel() {
        for source in sources { source.cancel() }
        for signalNumber in [SIGINT, SIGTERM] { signal(signalNumber, SIG_DFL) }
    }
}
