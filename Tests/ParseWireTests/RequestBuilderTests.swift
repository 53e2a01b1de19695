import Foundation
import Testing
import ParseWire

@Suite struct RequestBuilderTests {
    static let requestId = UUID(uuidString: "8D0B1C2E-3F40-4A5B-8C6D-7E8F90A1B2C3")!
    static let rid = "8d0b1c2e-3f40-4a5b-8c6d-7e8f90a1b2c3"

    let builder = ParseRequestBuilder(settings: ParseClientSettings(
        mountPath: "/parse/", applicationId: "APP", key: .client("CK"), installationId: "inst-1",
        clientVersion: "intercomd1.0.0", sessionToken: "r:tok"))

    private func names(_ request: ParseRequest) -> [String] { request.headers.map(\.name) }

    @Test func authenticatedRequestsCarryExactlyTheSdkHeaders() {
        let request = builder.currentUser(requestId: Self.requestId)
        #expect(request.method == .get && request.path == "/parse/users/me" && request.body == nil)
        #expect(request.headers == [
            .init("X-Parse-Application-Id", "APP"), .init("X-Parse-Client-Key", "CK"),
            .init("X-Parse-Client-Version", "intercomd1.0.0"), .init("X-Parse-Request-Id", Self.rid),
            .init("X-Parse-Installation-Id", "inst-1"), .init("X-Parse-Session-Token", "r:tok"),
            .init("Content-Type", "application/json"),
        ])
    }

    @Test func keyVariantsAndMissingTokenChangeOnlyTheirHeaders() {
        var settings = builder.settings
        settings.key = .restAPI("RK")
        settings.sessionToken = nil
        let rest = ParseRequestBuilder(settings: settings).currentUser(requestId: Self.requestId)
        #expect(rest.header("x-parse-rest-api-key") == "RK" && rest.header("X-Parse-Client-Key") == nil)
        #expect(rest.header("X-Parse-Session-Token") == nil && rest.headers.count == 6)
        settings.key = .none
        let bare = ParseRequestBuilder(settings: settings).currentUser(requestId: Self.requestId)
        #expect(names(bare) == ["X-Parse-Application-Id", "X-Parse-Client-Version", "X-Parse-Request-Id", "X-Parse-Installation-Id", "Content-Type"])
    }

    @Test func loginRequestsNeverSendTheOldSessionToken() {
        let anonymous = builder.anonymousLogin(anonymousId: "0C7D6A8E-1B7A-4C1E-9D86-3F2F1B9F0A11", requestId: Self.requestId)
        #expect(anonymous.method == .post && anonymous.path == "/parse/users")
        #expect(json(anonymous.bodyText) == ["authData": ["anonymous": ["id": "0c7d6a8e-1b7a-4c1e-9d86-3f2f1b9f0a11"]]])
        #expect(anonymous.header("X-Parse-Session-Token") == nil && anonymous.header("X-Parse-Request-Id") == Self.rid)
        let password = builder.login(username: "gate3", password: "p&ss w+rd", requestId: Self.requestId)
        #expect(password.method == .post && password.path == "/parse/login")
        #expect(json(password.bodyText) == ["username": "gate3", "password": "p&ss w+rd"])
        #expect(password.header("X-Parse-Session-Token") == nil)
    }

    @Test func activeUserUpsertBuildsQueryThenPutOrPost() throws {
        let find = builder.findOwnActiveUser(userID: "u1", requestId: Self.requestId)
        #expect(find.method == .get && find.path == "/parse/classes/ActiveUsers")
        #expect(find.queryItems == [.init("where", #"{"userID":"u1"}"#), .init("limit", "10")])
        #expect(find.pathAndQuery == "/parse/classes/ActiveUsers?where=%7B%22userID%22%3A%22u1%22%7D&limit=10")

        let fields = ActiveUserFields(userID: "u1", userTitle: "Gate 3", userLocation: try GeoPoint(latitude: 37.77, longitude: -122.41),
                                      deviceKind: "intercom", capabilities: ["audio", "video"])
        let expectedBody: JSONValue = [
            "userID": "u1", "userTitle": "Gate 3", "deviceKind": "intercom", "capabilities": ["audio", "video"],
            "userLocation": ["__type": "GeoPoint", "latitude": 37.77, "longitude": -122.41],
        ]
        let found = try ParseResponseDecoder().decode(QueryResults<ActiveUserRow>.self, status: 200, body: Fixture.bytes(#"{"results":[\#(Fixture.activeUserRow)]}"#))
        let plan = ActiveUserUpsert.plan(found)
        #expect(plan.existing == "Ed1nuqPvcm" && plan.stale.isEmpty)
        let put = builder.saveActiveUser(fields, existingObjectId: plan.existing, requestId: Self.requestId)
        #expect(put.method == .put && put.path == "/parse/classes/ActiveUsers/Ed1nuqPvcm" && json(put.bodyText) == expectedBody)
        let post = builder.saveActiveUser(fields, existingObjectId: nil, requestId: Self.requestId)
        #expect(post.method == .post && post.path == "/parse/classes/ActiveUsers" && json(post.bodyText) == expectedBody)
        let delete = builder.deleteActiveUser(objectId: "Ed1nuqPvcm", requestId: Self.requestId)
        #expect(delete.method == .delete && delete.path == "/parse/classes/ActiveUsers/Ed1nuqPvcm" && delete.body == nil)
    }

    @Test func callRowRequests() {
        let poll = builder.incomingCalls(receiverID: "u1", requestId: Self.requestId)
        #expect(poll.path == "/parse/classes/ActiveSessions")
        #expect(poll.queryItems == [.init("where", #"{"receiverID":"u1"}"#), .init("order", "createdAt"), .init("limit", "100")])
        let create = builder.createCall(NewCallRow(callerID: "u1", callerTitle: "Gate 3", receiverID: "webUser1", isVideo: true, isAudio: false), requestId: Self.requestId)
        #expect(create.method == .post && create.path == "/parse/classes/ActiveSessions")
        #expect(json(create.bodyText) == ["callerID": "u1", "callerTitle": "Gate 3", "receiverID": "webUser1", "isVideo": true, "isAudio": false])
        let delete = builder.deleteCall(objectId: "c4llR0w001", requestId: Self.requestId)
        #expect(delete.method == .delete && delete.path == "/parse/classes/ActiveSessions/c4llR0w001")
        let hostile = builder.deleteCall(objectId: "../users/me", requestId: Self.requestId)
        #expect(hostile.path == "/parse/classes/ActiveSessions/..%2Fusers%2Fme")
        let viewer = builder.viewerToken(sessionID: "sess-1", requestId: Self.requestId)
        #expect(viewer.method == .post && viewer.path == "/parse/functions/viewerToken" && json(viewer.bodyText) == ["sessionID": "sess-1"])
        #expect(viewer.header("X-Parse-Session-Token") == "r:tok")
    }

    @Test func nearSphereQueryUsesRadiansOfTheEarthRadius() throws {
        #expect(GeoDistance.radians(kilometers: 6371) == 1)
        #expect(abs(GeoDistance.radians(kilometers: 15.9275) - 0.0025) < 1e-12)
        #expect(abs(GeoDistance.radians(miles: 3958.8) - 1) < 1e-12)
        let request = builder.nearbyActiveUsers(center: try GeoPoint(latitude: 30, longitude: -20), withinKilometers: 63.71, userTitle: "Lobby", limit: 5, requestId: Self.requestId)
        #expect(request.queryItems.map(\.name) == ["where", "limit"] && request.queryItems[1].value == "5")
        #expect(json(request.queryItems[0].value) == [
            "userTitle": "Lobby",
            "userLocation": ["$nearSphere": ["__type": "GeoPoint", "latitude": 30, "longitude": -20], "$maxDistance": 0.01],
        ])
    }

    @Test func percentEncodingProtectsPlusAndUnicode() {
        var request = ParseRequest(method: .get, path: "/p")
        request.queryItems = [.init("where", #"{"a":"x+y é&="}"#)]
        #expect(request.pathAndQuery == "/p?where=%7B%22a%22%3A%22x%2By%20%C3%A9%26%3D%22%7D")
    }

    @Test func mountPathIsNormalised() {
        #expect(ParseClientSettings(mountPath: "parse//", applicationId: "a", installationId: "i", clientVersion: "v").mountPath == "/parse")
        #expect(ParseClientSettings(mountPath: "/", applicationId: "a", installationId: "i", clientVersion: "v").mountPath == "")
    }
}
