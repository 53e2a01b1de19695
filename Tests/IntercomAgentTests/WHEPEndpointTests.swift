@testable import IntercomAgent
import Logging
import Synchronization
import Testing

@Suite("WHEP endpoint: token, content type, offers, the viewer limit and the resource lifecycle")
struct WHEPEndpointTests {
    static let logger: Logger = {
        var logger = Logger(label: "whep-test")
        logger.logLevel = .critical
        return logger
    }()
    static let token = "s3cret-whep-token"
    static let bearer = "Bearer \(token)"
    static let offer = Array("v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n".utf8)

    /// Every count `WHEPViewers` reported.
    final class Counts: Sendable {
        let log = Mutex<[Int]>([])
        func append(_ count: Int) { log.withLock { $0.append(count) } }
    }

    /// An endpoint over scripted players, and every count `WHEPViewers` reported.
    struct Fixture {
        let endpoint: WHEPEndpoint
        let players: ScriptedWHEPPlayers
        let counts: Counts

        init(limit: Int = 2, connectTimeout: Duration = .seconds(60)) {
            let players = ScriptedWHEPPlayers(answer: "v=0 answer")
            let counts = Counts()
            self.players = players
            self.counts = counts
            endpoint = WHEPEndpoint(token: WHEPToken(WHEPEndpointTests.token), viewers: WHEPViewers(
                limit: limit, connectTimeout: connectTimeout, factory: players, logger: WHEPEndpointTests.logger
            ) { [counts] count in counts.append(count) })
        }

        var reportedCounts: [Int] { counts.log.withLock { $0 } }

        func post(_ authorization: String? = WHEPEndpointTests.bearer, contentType: String? = "application/sdp",
                  body: [UInt8] = WHEPEndpointTests.offer) async -> WHEPReply {
            await endpoint.post(authorization: authorization, contentType: contentType, body: body)
        }

        /// The resource ID in a 201's `Location`.
        func id(_ reply: WHEPReply) throws -> String {
            let location = try #require(reply.headers["Location"])
            #expect(location.hasPrefix("/whep/"))
            return String(location.dropFirst("/whep/".count))
        }
    }

    @Test("a good offer gets 201, a Location naming a new resource and the answer as application/sdp")
    func created() async throws {
        let fixture = Fixture()
        let reply = await fixture.post()
        #expect(reply.status == 201)
        #expect(reply.headers["Content-Type"] == "application/sdp")
        #expect(reply.body == "v=0 answer")
        let id = try fixture.id(reply)
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        #expect(await fixture.endpoint.viewers.ids == [id])
        #expect(fixture.reportedCounts == [1])
        #expect(fixture.players.player(id)?.stopCount == 0)
    }

    @Test("a missing, wrong or non-bearer token gets 401 with WWW-Authenticate, and no player is made",
          arguments: [nil, "Bearer wrong", "Bearer \(token)x", "Basic \(token)", token, "Bearer"])
    func unauthorized(_ authorization: String?) async {
        let fixture = Fixture()
        let reply = await fixture.post(authorization)
        #expect(reply.status == 401)
        #expect(reply.headers["WWW-Authenticate"] == "Bearer")
        #expect(fixture.players.players.isEmpty)
        #expect(fixture.reportedCounts.isEmpty)
    }

    @Test("a player that cannot send the header may give the token as ?access_token= (RFC 6750 §2.3), only the right one")
    func accessTokenParameter() async throws {
        let fixture = Fixture()
        let reply = await fixture.endpoint.post(authorization: nil, accessToken: Self.token, contentType: "application/sdp",
                                                body: Self.offer)
        #expect(reply.status == 201)
        let wrong = await fixture.endpoint.post(authorization: nil, accessToken: "nope", contentType: "application/sdp",
                                                body: Self.offer)
        #expect(wrong.status == 401)
        let id = try fixture.id(reply)
        #expect(await fixture.endpoint.delete(id: id, authorization: nil, accessToken: "nope").status == 401)
        #expect(await fixture.endpoint.delete(id: id, authorization: nil, accessToken: Self.token).status == 200)
    }

    @Test("the bearer scheme is case-insensitive and parameters of the content type are allowed")
    func lenientHeaders() async {
        let fixture = Fixture()
        #expect(await fixture.post("bearer \(Self.token)", contentType: "Application/SDP; charset=utf-8").status == 201)
    }

    @Test("a body that is not application/sdp gets 415 with Accept-Post", arguments: [nil, "application/json", "text/plain"])
    func unsupportedMediaType(_ contentType: String?) async {
        let fixture = Fixture()
        let reply = await fixture.post(contentType: contentType)
        #expect(reply.status == 415)
        #expect(reply.headers["Accept-Post"] == "application/sdp")
        #expect(fixture.players.players.isEmpty)
    }

    @Test("a body that is not SDP gets 400 before any media is made", arguments: [[], Array("hello".utf8), [0xFF, 0xFE, 0x76]])
    func notSDP(_ body: [UInt8]) async {
        let fixture = Fixture()
        let reply = await fixture.post(body: body)
        #expect(reply.status == 400)
        #expect(reply.body.contains("not an SDP offer"))
        #expect(fixture.players.players.isEmpty)
    }

    @Test("an offer the media refuses gets 400 with the reason; its slot is free again and its player stopped")
    func unusableOffer() async throws {
        let fixture = Fixture()
        fixture.players.answerNext(.failure(.unusableOffer("negotiation: no VP8")))
        let reply = await fixture.post()
        #expect(reply.status == 400)
        #expect(reply.body.contains("no VP8"))
        #expect(await fixture.endpoint.viewers.count == 0)
        #expect(fixture.reportedCounts == [1, 0])
        #expect(fixture.players.players.map(\.stopCount) == [1])
    }

    @Test("our own media failing is a 500, the slot freed")
    func mediaFailure() async {
        let fixture = Fixture()
        fixture.players.answerNext(.failure(.mediaFailed("no ICE candidate was gathered")))
        #expect(await fixture.post().status == 500)
        #expect(await fixture.endpoint.viewers.count == 0)
    }

    @Test("over the viewer limit: 503 with Retry-After; a DELETE frees a slot for the next player")
    func limit() async throws {
        let fixture = Fixture(limit: 2)
        let first = try fixture.id(await fixture.post())
        _ = try fixture.id(await fixture.post())
        let refused = await fixture.post()
        #expect(refused.status == 503)
        #expect(refused.headers["Retry-After"] != nil)
        #expect(refused.body.contains("max_viewers"))
        #expect(fixture.players.players.count == 2)
        #expect(await fixture.endpoint.delete(id: first, authorization: Self.bearer).status == 200)
        #expect(await fixture.post().status == 201)
        #expect(fixture.reportedCounts == [1, 2, 1, 2])
    }

    @Test("DELETE: 401 without the token (the session stays), 404 for an unknown resource, 200 tears it down once")
    func delete() async throws {
        let fixture = Fixture()
        let id = try fixture.id(await fixture.post())
        #expect(await fixture.endpoint.delete(id: id, authorization: "Bearer nope").status == 401)
        #expect(await fixture.endpoint.delete(id: id, authorization: nil).status == 401)
        #expect(await fixture.endpoint.viewers.count == 1)
        #expect(await fixture.endpoint.delete(id: "0123456789abcdef0123456789abcdef", authorization: Self.bearer).status == 404)
        #expect(await fixture.endpoint.delete(id: id, authorization: Self.bearer).status == 200)
        #expect(fixture.players.player(id)?.stopCount == 1)
        #expect(await fixture.endpoint.viewers.count == 0)
        #expect(await fixture.endpoint.delete(id: id, authorization: Self.bearer).status == 404)
        #expect(fixture.players.player(id)?.stopCount == 1)
        #expect(fixture.reportedCounts == [1, 0])
    }

    @Test("a player whose connection fails or closes loses its session without a DELETE",
          arguments: [MediaState.failed(.iceFailed), .failed(.dtlsFailed), .down])
    func connectionEnds(_ state: MediaState) async throws {
        let fixture = Fixture()
        let id = try fixture.id(await fixture.post())
        let player = try #require(fixture.players.player(id))
        player.onState(.up)
        player.onState(state)
        try await Self.eventually { await fixture.endpoint.viewers.count == 0 }
        #expect(player.stopCount == 1)
        #expect(await fixture.endpoint.delete(id: id, authorization: Self.bearer).status == 404)
        #expect(fixture.reportedCounts == [1, 0])
    }

    @Test("a player that never connects is dropped after the connect timeout; one that connected is kept")
    func connectTimeout() async throws {
        // The connected report and the deadline are tasks on the cooperative pool, which the unit stage
        // (~1,100 tests at once on 2 cores) can leave seconds behind: a 300 ms deadline once beat the report,
        // and a 2 s one was still pending after 10 s. The deadline is 2 s; the test waits up to 40 s.
        let fixture = Fixture(connectTimeout: .seconds(2))
        let abandoned = try fixture.id(await fixture.post())
        let watching = try fixture.id(await fixture.post())
        try #require(fixture.players.player(watching)).onState(.up)
        try await Self.eventually("the abandoned player dropped", within: .seconds(40)) {
            await fixture.endpoint.viewers.ids == [watching]
        }
        #expect(fixture.players.player(abandoned)?.stopCount == 1)
        try await Task.sleep(for: .milliseconds(500))
        #expect(await fixture.endpoint.viewers.ids == [watching])
        #expect(fixture.players.player(watching)?.stopCount == 0)
    }

    @Test("stopping the agent ends every session and refuses new offers")
    func closeAll() async throws {
        let fixture = Fixture()
        _ = try fixture.id(await fixture.post())
        _ = try fixture.id(await fixture.post())
        await fixture.endpoint.viewers.closeAll()
        #expect(fixture.players.players.map(\.stopCount) == [1, 1])
        #expect(await fixture.post().status == 500)
        #expect(fixture.reportedCounts.last == 0)
    }

    /// Polls `condition` every 20 ms for up to `limit`.
    static func eventually(_ what: String = "condition", within limit: Duration = .seconds(5),
                           _ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now + limit
        while !(await condition()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(what): not within \(limit)")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
