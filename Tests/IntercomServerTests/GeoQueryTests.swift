import Foundation
@testable import IntercomServer
import Testing

/// parse-wire.md §5 geo: `$nearSphere` sorted by distance with every `$maxDistance*` unit, `$geoWithin`
/// `$centerSphere`/`$polygon`, `$within $box`, and the R*Tree prefilter behind them.
@Suite struct GeoQueryTests {
    /// Devices on the equator east of (0, 0), created out of order. Distances from (0, 0):
    /// 0.1° = 11.1 km / 6.9 mi, 0.5° = 55.6 km / 34.5 mi, 1° = 111 km / 69 mi, 2° = 222 km / 138 mi,
    /// 5° = 556 km / 345 mi.
    static let longitudes: [(title: String, longitude: Double)] = [
        ("d2", 2), ("d01", 0.1), ("d5", 5), ("d1", 1), ("d05", 0.5),
    ]

    static func seed(_ client: ParseTestClient, extra: [(String, Double, Double)] = []) async throws -> TestUser {
        let points = longitudes.map { ($0.title, 0.0, $0.longitude) } + extra
        for (title, latitude, longitude) in points {
            let user = try await client.anonymousUser()
            let reply = try await client.create(
                "ActiveUsers", ["userID": .string(user.objectId), "userTitle": .string(title),
                                "userLocation": .geoPoint(latitude, longitude)], as: user)
            guard reply.status == 201 else { throw TestFailure("seed: \(reply.json)") }
        }
        // One device without a location never matches a geo query.
        let unplaced = try await client.anonymousUser()
        _ = try await client.create("ActiveUsers", ["userID": .string(unplaced.objectId), "userTitle": "nowhere"],
                                    as: unplaced)
        return unplaced
    }

    static func titles(_ reply: ParseReply) -> [String] {
        reply.results.compactMap { $0["userTitle"]?.stringValue }
    }

    static func near(_ extra: [String: JSONValue] = [:]) -> JSONValue {
        var constraint: [String: JSONValue] = ["$nearSphere": .geoPoint(0, 0)]
        constraint.merge(extra) { _, new in new }
        return ["userLocation": .object(constraint)]
    }

    @Test func nearSphereSortsByDistanceAscending() async throws {
        let server = try await TestServer()
        try await server.run { client in
            let user = try await Self.seed(client)
            let reply = try await client.query("ActiveUsers", ["where": Self.near()], token: user.sessionToken)
            #expect(Self.titles(reply) == ["d01", "d05", "d1", "d2", "d5"])
            let limited = try await client.query("ActiveUsers", ["where": Self.near(), "limit": 2])
            #expect(Self.titles(limited) == ["d01", "d05"])
            let pair = try await client.query("ActiveUsers", ["where": ["userLocation": ["$nearSphere": [0.9, 0]]]])
            #expect(Self.titles(pair).prefix(2) == ["d1", "d05"])
        }
    }

    @Test func maxDistanceInEveryUnitExcludesFartherPoints() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.seed(client)
            let cases: [(String, Double, [String])] = [
                ("$maxDistance", 0.02, ["d01", "d05", "d1"]),
                ("$maxDistance", 0.0017, []),
                ("$maxDistanceInRadians", 0.01, ["d01", "d05"]),
                ("$maxDistanceInKilometers", 150, ["d01", "d05", "d1"]),
                ("$maxDistanceInKilometers", 50, ["d01"]),
                ("$maxDistanceInMiles", 100, ["d01", "d05", "d1"]),
                ("$maxDistanceInMiles", 140, ["d01", "d05", "d1", "d2"]),
                ("$maxDistanceInMiles", 30, ["d01"]),
            ]
            for (unit, value, expected) in cases {
                let reply = try await client.query("ActiveUsers", ["where": Self.near([unit: .number(value)]), "count": 1])
                #expect(Self.titles(reply) == expected, "\(unit) \(value)")
                #expect(reply["count"] == .number(Double(expected.count)), "\(unit) \(value)")
            }
        }
    }

    @Test func explicitOrderOverridesDistance() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.seed(client)
            let reply = try await client.query("ActiveUsers", ["where": Self.near(["$maxDistance": 0.02]),
                                                               "order": "-userTitle"])
            #expect(Self.titles(reply) == ["d1", "d05", "d01"])
        }
    }

    @Test func geoWithinCenterSphereIsUnsortedButExact() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.seed(client)
            for center: JSONValue in [[0, 0], .geoPoint(0, 0)] {
                let reply = try await client.query(
                    "ActiveUsers", ["where": ["userLocation": ["$geoWithin": ["$centerSphere": [center, 0.02]]]]])
                #expect(Set(Self.titles(reply)) == ["d01", "d05", "d1"])
            }
        }
    }

    @Test func withinBoxAndPolygon() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.seed(client)
            let box = try await client.query(
                "ActiveUsers", ["where": ["userLocation": ["$within": ["$box": [.geoPoint(-1, 0.3), .geoPoint(1, 1.5)]]]]])
            #expect(Set(Self.titles(box)) == ["d05", "d1"])
            let polygon = try await client.query(
                "ActiveUsers",
                ["where": ["userLocation": ["$geoWithin": ["$polygon": [.geoPoint(-1, 0.7), .geoPoint(1, 0.7),
                                                                         .geoPoint(1, 3), .geoPoint(-1, 3)]]]]])
            #expect(Set(Self.titles(polygon)) == ["d1", "d2"])
        }
    }

    @Test func boxAndRadiusAcrossTheAntimeridian() async throws {
        let server = try await TestServer()
        try await server.run { client in
            _ = try await Self.seed(client, extra: [("east", 0, 179.5), ("west", 0, -179.5), ("mid", 0, 170)])
            let box = try await client.query(
                "ActiveUsers", ["where": ["userLocation": ["$within": ["$box": [.geoPoint(-1, 179), .geoPoint(1, -179)]]]]])
            #expect(Set(Self.titles(box)) == ["east", "west"])
            let near = try await client.query(
                "ActiveUsers", ["where": ["userLocation": ["$nearSphere": .geoPoint(0, 180), "$maxDistanceInKilometers": 200]]])
            #expect(Set(Self.titles(near)) == ["east", "west"])
        }
    }

    /// SQLite answers from the R*Tree; PostgreSQL from the GiST index on `point(longitude, latitude)` (with
    /// sequential scans priced out, since a nearly empty table is cheaper to scan).
    @Test func geoQueriesUseTheGeoIndexNotAScan() async throws {
        let server = try await TestServer()
        let predicate = try QueryParser.parse(Self.near(["$maxDistance": 0.02]))
        let filter = RowFilter.prefilter(for: predicate, in: .activeUsers)
        #expect(filter.conditionCount == 1)
        let (dialect, plan) = try await server.backend.database.read { db -> (SQLDialect, [String]) in
            let condition = filter.whereClause(db.dialect)
            switch db.dialect {
            case .sqlite:
                return (.sqlite, try db.rows("EXPLAIN QUERY PLAN SELECT * FROM ActiveUsers\(condition.sql)",
                                             condition.arguments).map { $0["detail"] as String })
            case .postgres:
                try db.execute("SET LOCAL enable_seqscan = off")
                return (.postgres, try db.rows("EXPLAIN SELECT * FROM ActiveUsers\(condition.sql)",
                                               condition.arguments).map { $0["QUERY PLAN"] as String })
            }
        }
        switch dialect {
        case .sqlite:
            #expect(plan.contains { $0.contains("ActiveUsers_geo VIRTUAL TABLE INDEX") }, "\(plan)")
            #expect(plan.contains { $0.contains("USING INTEGER PRIMARY KEY") }, "\(plan)")
        case .postgres:
            #expect(plan.contains { $0.contains("activeusers_geo") }, "\(plan)")
            #expect(!plan.contains { $0.contains("Seq Scan") }, "\(plan)")
        }
    }

    /// Every point within the radius lies in one of the covering rectangles (the prefilter never loses a row).
    @Test func coveringBoxesContainEveryPointInsideTheCircle() {
        var random = SplitMix64(seed: 0x1d0_c0de)
        var checked = 0
        for _ in 0..<20_000 {
            guard let center = GeoPoint(latitude: random.uniform(-89.9, 89.9), longitude: random.uniform(-180, 180)),
                  let point = GeoPoint(latitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180))
            else { continue }
            let radius = random.uniform(0, 1.5)
            guard GreatCircle.radians(from: center, to: point) <= radius else { continue }
            checked += 1
            let boxes = GeoBox.covering(center: center, radians: radius)
            #expect(boxes.contains { $0.contains(point) }, "center \(center) radius \(radius) point \(point)")
        }
        #expect(checked > 1000)
    }

    @Test func greatCircleDistancesMatchKnownValues() throws {
        let paris = try #require(GeoPoint(latitude: 48.8566, longitude: 2.3522))
        let london = try #require(GeoPoint(latitude: 51.5074, longitude: -0.1278))
        let kilometers = GreatCircle.radians(from: paris, to: london) * GreatCircle.earthRadiusKilometers
        #expect(abs(kilometers - 343.5) < 1)
        let pole = try #require(GeoPoint(latitude: 90, longitude: 0))
        let equator = try #require(GeoPoint(latitude: 0, longitude: 123))
        #expect(abs(GreatCircle.radians(from: pole, to: equator) - .pi / 2) < 1e-12)
    }
}

/// A small deterministic generator (Steele, Lea, Flood: "Fast splittable pseudorandom number generators").
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
