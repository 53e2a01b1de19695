import IntercomPlatform
import IntercomTestSupport
import Logging
import Testing

/// The only test in this target that touches the process-wide `LoggingSystem`.
@Suite struct LoggingBootstrapTests {
    @Test func bootstrapsOnceAndRoutesLoggersThroughTheJournalHandler() {
        let capture = LogCapture()
        let first = LoggingBootstrap.bootstrap(
            level: .notice, rateLimitPerMinute: 2, environment: ["INVOCATION_ID": "abc"], sink: capture.sink)
        let second = LoggingBootstrap.bootstrap(level: .trace, sink: LogCapture().sink)
        #expect(first)
        #expect(!second)

        let logger = Logger(label: "intercom.bootstrap-test")
        logger.info("below the level")
        logger.notice("one")
        logger.warning("two")
        logger.error("three is over the budget")
        Logger(label: "intercom.bootstrap-test").error("a new Logger shares the budget")
        #expect(capture.lines == ["<5>intercom.bootstrap-test: one", "<4>intercom.bootstrap-test: two"])
    }
}
