import Foundation
import ParseWire
import Testing

@Suite("The server's clock from Date headers")
struct ServerClockEstimateTests {
    @Test func parsesIMFFixdate() throws {
        let date = try #require(ServerClockEstimate.parseHTTPDate("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(date.timeIntervalSince1970 == 784_111_777)
    }

    @Test(arguments: [
        "", "Sun, 06 Nov 1994 08:49:37", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
        "Sun, 31 Feb 2026 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 08:49 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, -6 Nov 1994 08:49:37 GMT",
    ])
    func refusesAnythingElse(_ text: String) {
        #expect(ServerClockEstimate.parseHTTPDate(text) == nil)
    }

    @Test func theOffsetIsTheMedianOfRecentExchanges() throws {
        var clock = ServerClockEstimate()
        #expect(clock.offsetSeconds == nil)
        let device = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(clock.serverTime(at: device) == device, "no sample: the device's own clock")
        // The server is 90 s behind the device; its header was written during a 200 ms round trip.
        let header = "Fri, 15 Jan 2027 07:58:30 GMT"  // 1_800_000_000 − 90 = 1_799_999_910
        clock.record(dateHeader: header, sentAt: device, receivedAt: device + 0.2)
        #expect(abs(try #require(clock.offsetSeconds) - (-89.6)) < 0.001)
        // One slow, odd exchange does not move the median of several good ones.
        for _ in 0..<3 { clock.record(dateHeader: header, sentAt: device, receivedAt: device + 0.2) }
        clock.record(dateHeader: header, sentAt: device - 30, receivedAt: device + 0.2)
        #expect(abs(try #require(clock.offsetSeconds) - (-89.6)) < 0.001)
        #expect(abs(clock.serverTime(at: device).timeIntervalSince1970 - 1_799_999_910.4) < 0.001)
    }

    @Test func unreadableHeadersAndBackwardsExchangesAreIgnored() {
        var clock = ServerClockEstimate()
        let now = Date()
        clock.record(dateHeader: "yesterday", sentAt: now, receivedAt: now)
        clock.record(dateHeader: "Sun, 06 Nov 1994 08:49:37 GMT", sentAt: now, receivedAt: now - 1)
        #expect(clock.offsetSeconds == nil)
    }
}
