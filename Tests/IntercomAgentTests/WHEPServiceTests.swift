import AsyncHTTPClient
import Foundation
@testable import IntercomAgent
import IntercomConfig
import Logging
import ServiceLifecycle
import Testing

@Suite("WHEP service: POST and DELETE over a real HTTP port")
struct WHEPServiceTests {
    @Test("201 with Location and the answer, DELETE 200 then 404, a wrong token 401 with WWW-Authenticate")
    func overHTTP() async throws {
        let players = ScriptedWHEPPlayers(answer: "v=0\r\nanswer\r\n")
        let viewers = WHEPViewers(limit: 1, factory: players, logger: WHEPEndpointTests.logger) { _ in }
        let endpoint = WHEPEndpoint(token: WHEPToken(WHEPEndpointTests.token), viewers: viewers)
        let settings = WHEPSettings(host: "127.0.0.1", port: 0, tokenFile: "/unused")
        let (ports, portSink) = AsyncStream<Int>.makeStream()
        let service = WHEPService(settings: settings, endpoint: endpoint, logger: WHEPEndpointTests.logger) { portSink.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [.init(service: service)], logger: WHEPEndpointTests.logger))
        let running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        let base = "http://127.0.0.1:\(port)"

        let created = try await Self.send(.post, base + "/whep", token: WHEPEndpointTests.token, body: "v=0\r\n")
        #expect(created.status == 201)
        #expect(created.contentType == "application/sdp")
        #expect(created.body == "v=0\r\nanswer\r\n")
        let location = try #require(created.location)
        #expect(location.hasPrefix("/whep/"))
        let full = try await Self.send(.post, base + "/whep", token: WHEPEndpointTests.token, body: "v=0\r\n")
        #expect(full.status == 503)
        let wrong = try await Self.send(.post, base + "/whep", token: "wrong", body: "v=0\r\n")
        #expect(wrong.status == 401)
        #expect(wrong.authenticate == "Bearer")
        let query = try await Self.send(.post, base + "/whep?access_token=\(WHEPEndpointTests.token)", token: "wrong",
                                        body: "v=0\r\n")
        #expect(query.status == 503)  // past the token check (the header is wrong): the one slot is taken
        let json = try await Self.send(.post, base + "/whep", token: WHEPEndpointTests.token, body: "{}", contentType: "application/json")
        #expect(json.status == 415)
        #expect(try await Self.send(.delete, base + location, token: WHEPEndpointTests.token).status == 200)
        #expect(try await Self.send(.delete, base + location, token: WHEPEndpointTests.token).status == 404)
        #expect(players.players.map(\.stopCount) == [1])

        let again = try await Self.send(.post, base + "/whep", token: WHEPEndpointTests.token, body: "v=0\r\n")
        #expect(again.status == 201)
        await group.triggerGracefulShutdown()
        try await running.value
        // Stopping the service ended the remaining session.
        #expect(players.players.map(\.stopCount) == [1, 1])
    }

    struct Reply {
        var status: UInt
        var body: String
        var location: String?
        var contentType: String?
        var authenticate: String?
    }

    enum Method { case post, delete }

    static func send(_ method: Method, _ url: String, token: String, body: String? = nil,
                     contentType: String = "application/sdp") async throws -> Reply {
        var request = HTTPClientRequest(url: url)
        request.method = method == .post ? .POST : .DELETE
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        if let body {
            request.headers.add(name: "Content-Type", value: contentType)
            request.body = .bytes(Array(body.utf8), length: .known(Int64(body.utf8.count)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(5))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        return Reply(status: response.status.code, body: String(buffer: bytes), location: response.headers.first(name: "Location"),
                     contentType: response.headers.first(name: "Content-Type"),
                     authenticate: response.headers.first(name: "WWW-Authenticate"))
    }
}
