/// A property every input must keep (a round trip, a bound). A broken one is a bug in the code under test, so
/// it crashes: libFuzzer then saves the input as `crash-<sha1>` and prints `message`.
public func fuzzRequire(
    _ holds: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !holds() { fuzzFail(message(), file: file, line: line) }
}

/// Stops the run on a broken property; see `fuzzRequire`.
public func fuzzFail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
    fatalError("fuzz property violated: \(message)", file: file, line: line)
}
