import Foundation
import Hummingbird
import HummingbirdTesting
import IntercomServer
import Testing

/// parse-wire.md §1–§2: application id, keys, master key, session tokens, error envelopes.
@Suite struct HeaderAndErrorTests {
    @Test func missingOrWrongApplicationIdIs403Unauthorized() async throws {
        let server = try await TestServer()
        try await server.run { client in
            for appId in [nil, "other"] as [String?] {
                let reply = try await client.send(.get, "/parse/classes/ActiveUsers", applicationId: appId)
                #expect(reply.status == 403)
                #expect(reply.json == ["error": "unauthorized"])
            }
        }
    }

    @Test func configuredClientKeyIsRequired() async throws {
        let server = try await TestServer { $0.clientKeys = ["client-secret"] }
        try await server.run { client in
            let without = try await client.send(.get, "/parse/classes/ActiveUsers")
            #expect(without.status == 403)
            #expect(without.json == ["error": "unauthorized"])
            let wrong = try await client.send(.get, "/parse/classes/ActiveUsers",
                                              headers: ["X-Parse-Client-Key": "nope"])
            #expect(wrong.status == 403)
            for header in ["X-Parse-Client-Key", "X-Parse-REST-API-Key", "X-Parse-Javascript-Key"] {
                let right = try await client.send(.get, "/parse/classes/ActiveUsers", headers: [header: "client-secret"])
                #expect(right.status == 200, "\(header)")
            }
        }
    }

    @Test func healthNeedsNoApplicationId() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let parse = try await client.send(.get, "/parse/health", applicationId: nil)
            #expect(parse.status == 200)
            #expect(parse.json == ["status": "ok"])
            let root = try await client.send(.get, "/health", applicationId: nil)
            #expect(root.status == 200)
            #expect(root["status"] == "ok")
            #expect(root["database"] == "ok")
        }
    }

    @Test func badSessionTokenIs209OnEveryRoute() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/parse/classes/ActiveUsers"), (.post, "/parse/classes/ActiveSessions"),
                (.get, "/parse/users/me"), (.post, "/parse/logout"), (.post, "/parse/batch"),
                (.post, "/parse/functions/viewerToken"), (.delete, "/parse/classes/ActiveUsers/abc"),
            ]
            for (method, path) in routes {
                let reply = try await client.send(method, path, body: method == .get ? nil : [:], token: "r:forged")
                #expect(reply.status == 400, "\(path)")
                #expect(reply.json == ["code": 209, "error": "Invalid session token"], "\(path)")
            }
        }
    }

    @Test func loginIgnoresTheSessionTokenItIsSent() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "pw"])
            let reply = try await client.send(.post, "/parse/login", body: ["username": "ann", "password": "pw"],
                                              token: "r:stale")
            #expect(reply.status == 200)
        }
    }

    @Test func malformedJSONBodyIs400WithAnErrorMessage() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, "/parse/classes/ActiveUsers", rawBody: "{\"userID\":")
            #expect(reply.status == 400)
            #expect(reply.json["code"] == nil)
            #expect(reply.json["error"]?.stringValue?.isEmpty == false)
        }
    }

    @Test func anyContentTypeIsParsedAsJSON() async throws {
        let server = try await TestServer()
        try await server.run { client in
            // The JS SDK sends text/plain to avoid a CORS preflight.
            let reply = try await client.send(
                .post, "/parse/users", rawBody: #"{"authData":{"anonymous":{"id":"plain"}}}"#,
                headers: ["Content-Type": "text/plain"])
            #expect(reply.status == 201)
        }
    }

    @Test func nonObjectBodyIs107() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, "/parse/classes/ActiveUsers", rawBody: "[1,2]")
            #expect(reply.status == 400)
            #expect(reply.errorCode == 107)
        }
    }

    @Test func cloudContextMustBeAJSONObject() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let bad = try await client.send(.get, "/parse/classes/ActiveUsers", headers: ["X-Parse-Cloud-Context": "[1]"])
            #expect(bad.json == ["code": 107, "error": "Invalid object for context."])
            let good = try await client.send(.get, "/parse/classes/ActiveUsers",
                                             headers: ["X-Parse-Cloud-Context": #"{"reason":"test"}"#])
            #expect(good.status == 200)
        }
    }

    @Test func unknownRouteIs404() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.get, "/parse/installations/x")
            #expect(reply.status == 404)
            #expect(reply.json["error"]?.stringValue?.contains("/installations/x") == true)
        }
    }

    @Test func corsPreflightAndHeaders() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let preflight = try await client.send(.options, "/parse/classes/ActiveUsers", applicationId: nil)
            #expect(preflight.status == 200)
            #expect(preflight.header("Access-Control-Allow-Methods") == "GET,PUT,POST,DELETE,OPTIONS")
            #expect(preflight.header("Access-Control-Allow-Headers")?.contains("X-Parse-Session-Token") == true)
            let reply = try await client.send(.get, "/parse/classes/ActiveUsers")
            #expect(reply.header("Content-Type") == "application/json; charset=utf-8")
            #expect(reply.header("Access-Control-Allow-Origin") == "*")
        }
    }

    /// The router test framework has no IP peer; an unknown peer is never loopback, so the master key is
    /// refused exactly as from a remote address (the `.live` suite shows it accepted from 127.0.0.1).
    @Test func masterKeyFromANonLoopbackPeerIs403() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.get, "/parse/classes/ActiveSessions",
                                              headers: ["X-Parse-Master-Key": TestServer.masterKey])
            #expect(reply.status == 403)
            #expect(reply.json == ["error": "unauthorized"])
            // A wrong master key is not a master key: the request runs as the public.
            let wrong = try await client.send(.get, "/parse/classes/ActiveSessions",
                                              headers: ["X-Parse-Master-Key": "guess"])
            #expect(wrong.status == 200)
            #expect(wrong.results.isEmpty)
        }
    }

    @Test func javaScriptSDKBodyFormIsAccepted() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signup = try await client.send(
                .post, "/parse/users",
                body: ["_ApplicationId": "intercom", "_ClientVersion": "js5.3.0",
                       "authData": ["anonymous": ["id": "js-user"]]],
                applicationId: nil)
            #expect(signup.status == 201)
            let token = try #require(signup["sessionToken"]?.stringValue)
            let me = try await client.send(
                .post, "/parse/users/me", body: ["_method": "GET", "_ApplicationId": "intercom", "_SessionToken": .string(token)],
                applicationId: nil)
            #expect(me.status == 200)
            #expect(me["objectId"] == signup["objectId"])
            let find = try await client.send(
                .post, "/parse/classes/ActiveUsers",
                body: ["_method": "GET", "_ApplicationId": "intercom", "where": ["userID": "nobody"], "limit": 5],
                applicationId: nil)
            #expect(find.status == 200)
            #expect(find.json == ["results": []])
        }
    }
}
