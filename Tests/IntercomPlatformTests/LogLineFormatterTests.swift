import Foundation
import IntercomPlatform
import Logging
import Testing

@Suite struct LogLineFormatterTests {
    let time = Date(timeIntervalSince1970: 1_795_000_000.123)

    @Test(arguments: [
        (Logger.Level.trace, 7), (.debug, 7), (.info, 6), (.notice, 5), (.warning, 4), (.error, 3), (.critical, 2),
    ])
    func syslogPriorities(level: Logger.Level, priority: Int) {
        #expect(level.syslogPriority == priority)
        let line = LogLineFormatter(style: .journal).format(level: level, label: "agent", message: "m", time: time)
        #expect(line == "<\(priority)>agent: m")
    }

    @Test func consoleLineHasTimestampLevelAndLabel() {
        let line = LogLineFormatter(style: .console).format(level: .warning, label: "agent", message: "hi", time: time)
        #expect(line == "2026-11-18T11:06:40.123Z warning agent: hi")
    }

    @Test func timestampsBefore1970AndAtWholeSeconds() {
        let formatter = LogLineFormatter(style: .console)
        #expect(formatter.format(level: .info, label: "l", message: "m", time: Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z info l: m")
        #expect(formatter.format(level: .info, label: "l", message: "m", time: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z info l: m")
    }

    @Test func metadataIsSortedAndQuotedLogfmtStyle() {
        let metadata: Logger.Metadata = [
            "peer": "10.0.0.7:5000", "reason": "ICE failed", "empty": "", "quote": #"a"b"#, "list": ["x", "y"],
        ]
        let line = LogLineFormatter(style: .journal).format(level: .info, label: "call", message: "ended", metadata: metadata, time: time)
        #expect(line == #"<6>call: ended empty="" list="[\"x\", \"y\"]" peer=10.0.0.7:5000 quote="a\"b" reason="ICE failed""#)
    }

    @Test func newlinesCannotForgeAJournalEntry() {
        let line = LogLineFormatter(style: .journal).format(
            level: .info, label: "parse", message: "body:\n<0>fake emergency\r\u{1B}[31m", metadata: ["k": "a\nb"], time: time)
        #expect(line == #"<6>parse: body:\n<0>fake emergency\r\x1b[31m k=a\nb"#)
        #expect(!line.contains("\n"))
    }

    @Test func longMessagesAreTruncated() {
        let formatter = LogLineFormatter(style: .journal, maximumMessageLength: 10)
        #expect(formatter.format(level: .info, label: "l", message: "0123456789", time: time) == "<6>l: 0123456789")
        #expect(formatter.format(level: .info, label: "l", message: "0123456789ABC", time: time) == "<6>l: 0123456789…[truncated]")
    }

    @Test(arguments: [
        ([String: String](), LogLineStyle.console), (["JOURNAL_STREAM": "8:12345"], .journal),
        (["INVOCATION_ID": "0123abcd"], .journal), (["JOURNAL_STREAM": ""], .console),
    ])
    func styleDetection(environment: [String: String], expected: LogLineStyle) {
        #expect(LogLineStyle.detect(environment: environment) == expected)
    }
}
