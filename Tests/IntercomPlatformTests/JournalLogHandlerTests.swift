import Foundation
import IntercomPlatform
import IntercomTestSupport
import Logging
import Testing

@Suite struct JournalLogHandlerTests {
    func makeLogger(
        _ label: String = "intercom.test",
        style: LogLineStyle = .journal,
        limiter: SharedLogRateLimiter = SharedLogRateLimiter(),
        capture: LogCapture,
        clock: ManualLogClock = ManualLogClock()
    ) -> Logger {
        var logger = Logger(label: label) { label in
            JournalLogHandler(label: label, style: style, rateLimiter: limiter, sink: capture.sink, clock: clock.clock)
        }
        logger.logLevel = .trace
        return logger
    }

    @Test func everyLevelGetsItsPriorityPrefix() {
        let capture = LogCapture()
        let logger = makeLogger(capture: capture)
        logger.trace("t")
        logger.debug("d")
        logger.info("i")
        logger.notice("n")
        logger.warning("w")
        logger.error("e")
        logger.critical("c")
        #expect(capture.lines == [
            "<7>intercom.test: t", "<7>intercom.test: d", "<6>intercom.test: i", "<5>intercom.test: n",
            "<4>intercom.test: w", "<3>intercom.test: e", "<2>intercom.test: c",
        ])
    }

    @Test func consoleStyleUsesTimestampLevelAndLabel() {
        let capture = LogCapture()
        let logger = makeLogger(style: .console, capture: capture)
        logger.notice("ready")
        #expect(capture.lines == ["2026-11-18T11:06:40.123Z notice intercom.test: ready"])
    }

    @Test func levelFilterApplies() {
        let capture = LogCapture()
        var logger = makeLogger(capture: capture)
        logger.logLevel = .warning
        logger.info("hidden")
        logger.warning("shown")
        #expect(capture.lines == ["<4>intercom.test: shown"])
    }

    @Test func metadataFromHandlerCallAndErrorAreMerged() {
        struct DeviceBusy: Error, CustomStringConvertible {
            var description: String { "EBUSY" }
        }
        let capture = LogCapture()
        var logger = makeLogger(capture: capture)
        logger[metadataKey: "device"] = "door-1"
        logger[metadataKey: "call"] = "old"
        logger.error("camera open failed", error: DeviceBusy(), metadata: ["call": "c42"])
        #expect(capture.lines == ["<3>intercom.test: camera open failed call=c42 device=door-1 error=EBUSY"])
    }

    @Test func rateLimitDropsExcessAndPrintsOneSummaryWhenTheWindowRolls() {
        let capture = LogCapture()
        let clock = ManualLogClock()
        let limiter = SharedLogRateLimiter(LogRateLimiter(linesPerWindow: 2))
        let logger = makeLogger("media", limiter: limiter, capture: capture, clock: clock)
        for index in 0..<7 { logger.info("frame \(index)") }
        #expect(capture.lines == ["<6>media: frame 0", "<6>media: frame 1"])

        clock.advance(by: .seconds(60))
        logger.info("after")
        #expect(capture.lines == [
            "<6>media: frame 0", "<6>media: frame 1",
            "<4>media: suppressed 5 messages from media in the last minute",
            "<6>media: after",
        ])
    }

    @Test func copiesAndSeparateLoggersWithOneLimiterShareTheBudget() {
        let capture = LogCapture()
        let limiter = SharedLogRateLimiter(LogRateLimiter(linesPerWindow: 3))
        let first = makeLogger("parse", limiter: limiter, capture: capture)
        var copy = first
        copy[metadataKey: "copy"] = "yes"
        let second = makeLogger("parse", limiter: limiter, capture: capture)
        let other = makeLogger("gpio", limiter: limiter, capture: capture)
        first.info("1")
        copy.info("2")
        second.info("3")
        second.info("4 dropped")
        other.info("gpio has its own budget")
        #expect(capture.lines == [
            "<6>parse: 1", "<6>parse: 2 copy=yes", "<6>parse: 3", "<6>gpio: gpio has its own budget",
        ])
    }

    @Test func concurrentLoggingNeverExceedsTheBudget() async {
        let capture = LogCapture()
        let limiter = SharedLogRateLimiter(LogRateLimiter(linesPerWindow: 50))
        let logger = makeLogger("busy", limiter: limiter, capture: capture)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { for index in 0..<100 { logger.info("task \(task) line \(index)") } }
            }
        }
        #expect(capture.lines.count == 50)
    }
}
