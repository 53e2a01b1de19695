import Foundation
import Testing
import ParseWire

@Suite struct WireTypesTests {
    private func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try ParseResponseDecoder().decode(type, status: 200, body: Fixture.bytes(text))
    }

    @Test func isoDatesRoundTripWithMilliseconds() throws {
        let date = try #require(ISO8601Millis.parse(Fixture.createdAt))
        #expect(abs(date.timeIntervalSince1970 - Fixture.createdAtSeconds) < 1e-6)
        #expect(ISO8601Millis.format(date) == Fixture.createdAt)
        #expect(ISO8601Millis.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(ISO8601Millis.parse("2024-02-29T00:00:00Z") != nil)
        #expect(ISO8601Millis.format(try #require(ISO8601Millis.parse("1969-12-31T23:59:59.999Z"))) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601Millis.format(Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Millis.format(Date(timeIntervalSince1970: -1e300)) == "0000-01-01T00:00:00.000Z")
        #expect(ISO8601Millis.parse("0000-01-01T00:00:00.000Z")?.timeIntervalSince1970 == -62_167_219_200)
    }

    @Test(arguments: [
        "2024-01-01T12:23:45.678", "2024-01-01 12:23:45.678Z", "2024-13-01T12:23:45.678Z", "2023-02-29T00:00:00Z",
        "2024-01-01T24:00:00.000Z", "2024-01-01T12:23:45.Z", "2024-01-01T12:23:45.678+01:00", "", "yesterday",
        "2024-01-01T12:23:45.6789012345Z", "２０２４-01-01T12:23:45.678Z",
    ])
    func badIsoDatesAreRejected(_ text: String) {
        #expect(ISO8601Millis.parse(text) == nil)
    }

    /// The server's reading of clients' dates is looser than the agent's of the server's; both come to the
    /// same millisecond wherever both accept the text.
    @Test func strictAndLenientReadingsAgreeWhereBothAccept() {
        #expect(ISO8601Millis.milliseconds(from: "2024-01-01T12:23:45.678Z") == 1_704_111_825_678)
        #expect(ISO8601Millis.milliseconds(from: "1969-12-31T23:59:59.999Z") == -1)
        #expect(ISO8601Millis.milliseconds(from: "2024-01-01T12:23:45.6789Z") == 1_704_111_825_678)
        #expect(ISO8601Millis.milliseconds(from: "2024-01-01T12:23:45.6Z") == 1_704_111_825_600)
        for lenientOnly in ["2024-01-01 12:23:45.678Z", "2024-01-01T12:23:45.678+00:00", "2016-12-31T23:59:60Z",
                            "2024-01-01T12:23:45.67800000000000000000001Z"] {
            #expect(ISO8601Millis.milliseconds(from: lenientOnly) == nil, "\(lenientOnly)")
            #expect(ISO8601Millis.milliseconds(from: lenientOnly, .lenient) != nil, "\(lenientOnly)")
        }
        #expect(ISO8601Millis.milliseconds(from: "2024-01-01 12:23:45.678+00:00", .lenient) == 1_704_111_825_678)
        for neither in ["2024-01-01T12:23:45.Z", "2024-01-01T12:23:45.678+01:00", "2024-02-30T00:00:00Z", "yesterday"] {
            #expect(ISO8601Millis.milliseconds(from: neither, .lenient) == nil, "\(neither)")
        }
        #expect(ISO8601Millis.format(milliseconds: .max) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Millis.format(milliseconds: .min) == "0000-01-01T00:00:00.000Z")
    }

    @Test func geoPointDecodesAndValidatesRange() throws {
        let point = try decode(GeoPoint.self, #"{"__type":"GeoPoint","latitude":37.77,"longitude":-122.41}"#)
        #expect(point.latitude == 37.77 && point.longitude == -122.41)
        #expect(throws: ParseWireError.geoPointOutOfRange(latitude: 91, longitude: 0)) {
            try decode(GeoPoint.self, #"{"__type":"GeoPoint","latitude":91,"longitude":0}"#)
        }
        #expect(throws: ParseWireError.geoPointOutOfRange(latitude: 0, longitude: -180.5)) { try GeoPoint(latitude: 0, longitude: -180.5) }
        #expect(throws: ParseWireError.malformedTypedValue(path: "", expected: "GeoPoint")) {
            try decode(GeoPoint.self, #"{"__type":"Geopoint","latitude":1,"longitude":2}"#)
        }
        #expect(throws: ParseWireError.malformedTypedValue(path: "", expected: "GeoPoint")) {
            try decode(GeoPoint.self, #"{"__type":"GeoPoint","latitude":"1","longitude":2}"#)
        }
        let text = encodedText(try GeoPoint(latitude: 1.5, longitude: -2.25))
        #expect(text == #"{"__type":"GeoPoint","latitude":1.5,"longitude":-2.25}"#)
    }

    @Test func typedDateAndPointerDecodeAndRejectMalformedTypes() throws {
        struct Holder: Decodable { var when: ParseDate; var user: Pointer }
        let holder = try decode(Holder.self, #"{"when":{"__type":"Date","iso":"2024-01-01T12:23:45.678Z"},"user":{"__type":"Pointer","className":"_User","objectId":"x"}}"#)
        #expect(ISO8601Millis.format(holder.when.date) == Fixture.createdAt)
        #expect(holder.user == Pointer(className: "_User", objectId: "x"))
        #expect(throws: ParseWireError.malformedTypedValue(path: "when", expected: "Date")) {
            try decode(Holder.self, #"{"when":{"__type":"Pointer","iso":"2024-01-01T12:23:45.678Z"},"user":{"__type":"Pointer","className":"_User","objectId":"x"}}"#)
        }
        #expect(throws: ParseWireError.invalidDate(path: "when", value: "2024-99-01T00:00:00.000Z")) {
            try decode(Holder.self, #"{"when":{"__type":"Date","iso":"2024-99-01T00:00:00.000Z"},"user":{"__type":"Pointer","className":"_User","objectId":"x"}}"#)
        }
        #expect(throws: ParseWireError.malformedTypedValue(path: "user", expected: "Pointer")) {
            try decode(Holder.self, #"{"when":{"__type":"Date","iso":"2024-01-01T12:23:45.678Z"},"user":{"__type":"Relation","className":"_User"}}"#)
        }
        let encoded = encodedText(ParseDate(holder.when.date))
        #expect(encoded == #"{"__type":"Date","iso":"2024-01-01T12:23:45.678Z"}"#)
    }

    @Test func aclDecodesMissingFlagsAsFalseAndEncodesOnlyGrants() throws {
        let acl = try decode(ACL.self, #"{"*":{"read":true},"u1":{"read":true,"write":true},"role:Admin":{"write":true}}"#)
        #expect(acl.canRead(userId: nil) && !acl.canWrite(userId: nil))
        #expect(acl.canWrite(userId: "u1") && !acl.canWrite(userId: "u2"))
        #expect(acl.entries["role:Admin"] == ACL.Access(read: false, write: true))
        #expect(json(encodedText(ACL.privateTo(userId: "u9"))) == ["u9": ["read": true, "write": true]])
    }

    @Test func activeUserRowDecodesOriginalFieldsAndOptionalAdditions() throws {
        let row = try decode(ActiveUserRow.self, Fixture.activeUserRow)
        #expect(row.objectId == "Ed1nuqPvcm" && row.userID == "u1" && row.userTitle == "Gate 3, North entrance")
        #expect(row.userLocation.latitude == 37.77 && row.deviceKind == nil && row.capabilities == nil)
        #expect(ISO8601Millis.format(try #require(row.updatedAt).date) == "2024-01-01T12:24:45.001Z")
        let extended = Fixture.activeUserRow.replacingOccurrences(
            of: #""userID":"u1","#, with: #""userID":"u1","deviceKind":"intercom","answerMode":"button","capabilities":["audio","video","door"],"#)
        let row2 = try decode(ActiveUserRow.self, extended)
        #expect(row2.deviceKind == "intercom" && row2.answerMode == "button" && row2.capabilities == ["audio", "video", "door"])
        #expect(row2.fields.deviceKind == "intercom")
    }

    @Test func activeSessionRowDecodesExtendedAndOriginalRows() throws {
        let row = try decode(ActiveSessionRow.self, Fixture.callRow)
        #expect(row.callerID == "webUser1" && row.receiverID == "u1" && row.isVideo == true)
        #expect(row.iceServers == [IceServer(urls: ["turn:turn.example.org:3478?transport=udp"], username: "1704115425:u1", credential: "c3VwZXI=")])
        #expect(row.signalURL == "wss://example.org/signal/sess-1")
        let expiry = try #require(row.expiresAt).date
        #expect(row.isExpired(at: expiry) && !row.isExpired(at: expiry.addingTimeInterval(-1)))
        let original = try decode(ActiveSessionRow.self, Fixture.originalCallRow)
        #expect(original.signalURL == nil && original.iceServers == nil && original.expiresAt == nil)
        #expect(original.publisherToken == "p" && !original.isExpired(at: Date.distantFuture))
    }

    @Test func iceServerAcceptsSingleUrlString() throws {
        let server = try decode(IceServer.self, #"{"urls":"stun:stun.example.org"}"#)
        #expect(server.urls == ["stun:stun.example.org"] && server.username == nil)
        #expect(throws: ParseWireError.invalidValue(path: "urls", reason: "empty urls")) { try decode(IceServer.self, #"{"urls":[]}"#) }
    }

    @Test func createQueryUserAndFunctionResponsesDecode() throws {
        let created = try decode(CreateResponse.self, #"{"objectId":"Ed1nuqPvcm","createdAt":"2024-01-01T12:23:45.678Z"}"#)
        #expect(created.objectId == "Ed1nuqPvcm" && abs(created.createdAt.date.timeIntervalSince1970 - Fixture.createdAtSeconds) < 1e-6)
        let call = try decode(CallCreateResponse.self, #"{"objectId":"c1","createdAt":"2024-01-01T12:23:45.678Z","sessionID":"s","publisherToken":"p","subscriberToken":"t"}"#)
        #expect(call.sessionID == "s" && call.subscriberToken == "t" && call.signalURL == nil)
        let updated = try decode(UpdateResponse.self, #"{"updatedAt":"2024-01-01T12:23:45.678Z"}"#)
        #expect(ISO8601Millis.format(updated.updatedAt.date) == Fixture.createdAt)
        _ = try decode(EmptyResponse.self, "{}")

        let query = try decode(QueryResults<ActiveUserRow>.self, #"{"results":[\#(Fixture.activeUserRow)],"count":7}"#)
        #expect(query.results.map(\.objectId) == ["Ed1nuqPvcm"] && query.count == 7)
        let empty = try decode(QueryResults<ActiveSessionRow>.self, #"{"results":[]}"#)
        #expect(empty.results.isEmpty && empty.count == nil)

        let signup = try decode(UserResponse.self, #"{"objectId":"g7y9tkhB7O","createdAt":"2024-01-01T12:23:45.678Z","username":"aB3dE5gH7jK9mN1pQ3sT5vW7x","sessionToken":"r:0123456789abcdef0123456789abcdef"}"#)
        #expect(signup.sessionToken == "r:0123456789abcdef0123456789abcdef" && signup.username?.count == 25)
        let relogin = try decode(UserResponse.self, #"{"objectId":"g7y9tkhB7O","username":"x","authData":{"anonymous":{"id":"0c7d6a8e-1b7a-4c1e-9d86-3f2f1b9f0a11"}},"createdAt":"2024-01-01T12:23:45.678Z","updatedAt":"2024-01-02T12:23:45.678Z","ACL":{"g7y9tkhB7O":{"read":true,"write":true}},"sessionToken":"r:ffff"}"#)
        #expect(relogin.authData?.anonymous?.id == "0c7d6a8e-1b7a-4c1e-9d86-3f2f1b9f0a11")

        let viewer = try decode(FunctionResponse<ViewerTokenResult>.self, #"{"result":{"token":"v.jwt"}}"#)
        #expect(viewer.result.token == "v.jwt")
    }
}
