import IntercomTestSupport
import Testing
@testable import IntercomConfig

@Suite("Config: [call] replies (issue #22)")
struct CallRepliesConfigTests {
    @Test("read as given; none by default")
    func values() throws {
        #expect(try #require(load(minimalConfig).configuration).call.replies == [])
        let text = minimalConfig + "[call]\nreplies = [\"Please leave the parcel at the door\", \"Two\\nlines\"]\n"
        #expect(try #require(load(text).configuration).call.replies == ["Please leave the parcel at the door", "Two\nlines"])
    }

    @Test("more than 5, an empty, an oversize or a control-character reply is a problem at its line")
    func problems() {
        let six = (1...6).map { "\"r\($0)\"" }.joined(separator: ", ")
        #expect(problemLines(load(minimalConfig + "[call]\nreplies = [\(six)]\n")) == [
            "intercom.toml:9: call.replies: at most 5 replies, got 6",
        ])
        let long = String(repeating: "x", count: 501)
        #expect(problemLines(load(minimalConfig + "[call]\nreplies = [\"ok\", \"\", \"\(long)\", \"bell\\u0007\"]\n")) == [
            "intercom.toml:9: call.replies[1]: is empty",
            "intercom.toml:9: call.replies[2]: is 501 characters; at most 500",
            "intercom.toml:9: call.replies[3]: holds a control character (only newline is allowed)",
        ])
    }

    @Test("reply_when_missed is off by default, a bool when given")
    func replyWhenMissed() throws {
        #expect(try #require(load(minimalConfig).configuration).call.replyWhenMissed == false)
        #expect(try #require(load(minimalConfig + "[call]\nreply_when_missed = true\n").configuration).call.replyWhenMissed)
        #expect(problemLines(load(minimalConfig + "[call]\nreply_when_missed = \"yes\"\n")).count == 1)
    }
}
