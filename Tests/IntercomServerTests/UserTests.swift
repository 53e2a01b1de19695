import Foundation
@testable import IntercomServer
import Testing

/// parse-wire.md §3: sign-up, anonymous auth, login, logout, /users/me, /sessions/me.
@Suite struct UserTests {
    static var objectIdPattern: Regex<Substring> { /^[A-Za-z0-9]{10}$/ }
    static var timestampPattern: Regex<Substring> { /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/ }
    static var sessionTokenPattern: Regex<Substring> { /^r:[0-9a-f]{32}$/ }

    @Test func signUpAnswers201WithExactlyThreeKeysAndALocation() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let reply = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "pw", "title": "Ann"])
            #expect(reply.status == 201)
            #expect(Set(reply.json.objectValue?.keys ?? [:].keys) == ["objectId", "createdAt", "sessionToken"])
            let objectId = try #require(reply["objectId"]?.stringValue)
            #expect(objectId.wholeMatch(of: Self.objectIdPattern) != nil)
            #expect(reply["createdAt"]?.stringValue?.wholeMatch(of: Self.timestampPattern) != nil)
            #expect(reply["sessionToken"]?.stringValue?.wholeMatch(of: Self.sessionTokenPattern) != nil)
            #expect(reply.header("Location")?.hasSuffix("/parse/users/\(objectId)") == true)
        }
    }

    @Test func signUpErrors() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let noName = try await client.send(.post, "/parse/users", body: ["password": "pw"])
            #expect(noName.json == ["code": 200, "error": "bad or missing username"])
            let noPassword = try await client.send(.post, "/parse/users", body: ["username": "ann"])
            #expect(noPassword.json == ["code": 201, "error": "password is required"])
            _ = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "pw"])
            let taken = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "other"])
            #expect(taken.status == 400)
            #expect(taken.json == ["code": 202, "error": "Account already exists for this username."])
            let withId = try await client.send(.post, "/parse/users", body: ["username": "bo", "password": "p", "objectId": "x"])
            #expect(withId.errorCode == 105)
        }
    }

    @Test func passwordsAreStoredOnlyAsHashes() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "correct horse"])
        }
        let rows = try await server.backend.database.read { db in
            try db.rows(#"SELECT * FROM "_User""#).map { "\($0)" }
        }
        #expect(rows.count == 1)
        #expect(!rows.contains { $0.contains("correct horse") })
        #expect(rows.contains { $0.contains("pbkdf2-sha256$") })
        if let path = server.backend.database.path {
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            let wal = (try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data()
            for bytes in [file, wal] {
                #expect(bytes.range(of: Data("correct horse".utf8)) == nil)
            }
            #expect((file + wal).range(of: Data("pbkdf2-sha256$".utf8)) != nil)
        }
    }

    @Test func logInByPostAndByGet() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let signup = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "p w&x"])
            let post = try await client.send(.post, "/parse/login", body: ["username": "ann", "password": "p w&x"])
            #expect(post.status == 200)
            #expect(post["objectId"] == signup["objectId"])
            #expect(post["username"] == "ann")
            #expect(post["password"] == nil)
            #expect(post["sessionToken"] != signup["sessionToken"])
            let get = try await client.send(.get, "/parse/login?username=ann&password=p+w%26x")
            #expect(get.status == 200)
            #expect(get["sessionToken"]?.stringValue?.wholeMatch(of: Self.sessionTokenPattern) != nil)
            #expect(get["sessionToken"] != post["sessionToken"])
        }
    }

    @Test func wrongCredentialsAre404Code101() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await client.send(.post, "/parse/users", body: ["username": "ann", "password": "pw"])
            for body: JSONValue in [["username": "ann", "password": "nope"], ["username": "bob", "password": "pw"]] {
                let reply = try await client.send(.post, "/parse/login", body: body)
                #expect(reply.status == 404)
                #expect(reply.json == ["code": 101, "error": "Invalid username/password."])
            }
            // An anonymous user has no password to log in with.
            let anonymous = try await client.send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": "a"]]])
            let reply = try await client.send(.post, "/parse/login",
                                              body: ["username": anonymous["username"] ?? "", "password": "x"])
            #expect(reply.status == 404)
        }
    }

    @Test func anonymousSignUpThenLoginGivesTheSameUserAndANewToken() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let id = UUID().uuidString.lowercased()
            let first = try await client.send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": .string(id)]]])
            #expect(first.status == 201)
            #expect(Set(first.json.objectValue?.keys ?? [:].keys) == ["objectId", "createdAt", "username", "sessionToken"])
            #expect(first["username"]?.stringValue?.wholeMatch(of: /^[A-Za-z0-9]{25}$/) != nil)

            let second = try await client.send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": .string(id)]]])
            #expect(second.status == 200)
            #expect(second["objectId"] == first["objectId"])
            #expect(second["username"] == first["username"])
            #expect(second["authData"] == ["anonymous": ["id": .string(id)]])
            #expect(second["updatedAt"] != nil)
            #expect(second["sessionToken"] != first["sessionToken"])
            #expect(second.header("Location")?.hasSuffix("/parse/users/\(first["objectId"]?.stringValue ?? "?")") == true)

            // Both sessions stay valid (no installation id: nothing to replace).
            for reply in [first, second] {
                let me = try await client.send(.get, "/parse/users/me", token: reply["sessionToken"]?.stringValue)
                #expect(me.status == 200)
            }
        }
    }

    @Test func otherAuthProvidersAre252AndDisabledAnonymousToo() async throws {
        let server = try await TestServer { $0.allowAnonymousUsers = false }
        try await server.run { client in
            let facebook = try await client.send(.post, "/parse/users", body: ["authData": ["facebook": ["id": "1"]]])
            #expect(facebook.json == ["code": 252, "error": "This authentication method is unsupported."])
            let anonymous = try await client.send(.post, "/parse/users", body: ["authData": ["anonymous": ["id": "1"]]])
            #expect(anonymous.errorCode == 252)
        }
    }

    @Test func usersMeAndSessionsMe() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let me = try await client.send(.get, "/parse/users/me", token: user.sessionToken)
            #expect(me.status == 200)
            #expect(me["objectId"] == .string(user.objectId))
            #expect(me["sessionToken"] == .string(user.sessionToken))
            #expect(me["ACL"] == [user.objectId: ["read": true, "write": true]])

            let session = try await client.send(.get, "/parse/sessions/me", token: user.sessionToken)
            #expect(session["user"] == ["__type": "Pointer", "className": "_User", "objectId": .string(user.objectId)])
            #expect(session["expiresAt"]?["__type"] == "Date")

            let anonymous = try await client.send(.get, "/parse/users/me")
            #expect(anonymous.status == 400)
            #expect(anonymous.errorCode == 209)
        }
    }

    @Test func usersArePrivate() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let ann = try await client.anonymousUser()
            let bob = try await client.anonymousUser()
            let own = try await client.send(.get, "/parse/users/\(ann.objectId)", token: ann.sessionToken)
            #expect(own.status == 200)
            let other = try await client.send(.get, "/parse/users/\(ann.objectId)", token: bob.sessionToken)
            #expect(other.status == 404)
            #expect(other.errorCode == 101)
        }
    }

    @Test func logoutDeletesTheSessionAndTheTokenThenGets209() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await client.anonymousUser()
            let logout = try await client.send(.post, "/parse/logout", body: [:], token: user.sessionToken)
            #expect(logout.status == 200)
            #expect(logout.json == [:])
            for path in ["/parse/users/me", "/parse/classes/ActiveUsers"] {
                let after = try await client.send(.get, path, token: user.sessionToken)
                #expect(after.json == ["code": 209, "error": "Invalid session token"])
            }
            let again = try await client.send(.post, "/parse/logout", body: [:])
            #expect(again.json == [:])
        }
    }

    @Test func expiredSessionIs209Expired() async throws {
        let clock = TestClock()
        let server = try await TestServer(clock: clock) { $0.sessionLengthSeconds = 100 }
        try await server.run { client in
            let user = try await client.anonymousUser()
            clock.advance(seconds: 99)
            #expect(try await client.send(.get, "/parse/users/me", token: user.sessionToken).status == 200)
            clock.advance(seconds: 2)
            let expired = try await client.send(.get, "/parse/users/me", token: user.sessionToken)
            #expect(expired.json == ["code": 209, "error": "Session token is expired."])
        }
    }

    @Test func loggingInAgainFromTheSameInstallationReplacesItsSession() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let headers = ["X-Parse-Installation-Id": "device-1"]
            let body: JSONValue = ["authData": ["anonymous": ["id": "dev"]]]
            let first = try await client.send(.post, "/parse/users", body: body, headers: headers)
            let second = try await client.send(.post, "/parse/users", body: body, headers: headers)
            let old = try await client.send(.get, "/parse/users/me", token: first["sessionToken"]?.stringValue)
            #expect(old.errorCode == 209)
            let new = try await client.send(.get, "/parse/users/me", token: second["sessionToken"]?.stringValue)
            #expect(new.status == 200)
        }
    }
}
