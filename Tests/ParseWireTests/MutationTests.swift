import Foundation
import Testing
import ParseWire

/// Random and mutated inputs thrown at every decoder (reliability matrix row 6, §(c) 9 and 10): each one must
/// either decode, throw `ParseWireError`, or be reported as `.ignored` — never crash, hang or misbehave.
@Suite struct MutationTests {
    static let liveSeeds = [
        Fixture.connected, Fixture.subscribed(1), Fixture.liveEvent("create"), Fixture.liveEvent("update"),
        Fixture.liveEvent("leave"), #"{"op":"error","error":"x","code":1,"reconnect":true,"requestId":null}"#,
        #"{"op":"unsubscribed","requestId":1}"#,
    ]

    static let signalingSeeds = SignalingFrameTests.frames.map(\.text)

    static let responseSeeds = [Fixture.callRow, Fixture.originalCallRow, #"{"results":[\#(Fixture.callRow)],"count":1}"#,
                                #"{"objectId":"g7","sessionToken":"r:1","authData":{"anonymous":{"id":"x"}}}"#]

    /// Byte-level mutation: flip, delete, duplicate, truncate or splice in a JSON token.
    static func mutateBytes(_ text: String, rng: inout SeededRandom) -> String {
        var bytes = Array(text.utf8)
        let tokens = ["null", "-1", "1.5", "1e400", "\"\"", "[]", "{}", "\"\\ud800\"", "true", ",", ":", "\"op\"", "[[[[", "}}"]
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            guard !bytes.isEmpty else { break }
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &rng))
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(bytes[at], at: at)
            case 3: bytes.removeSubrange(at...)
            default: bytes.insert(contentsOf: Array(tokens.randomElement(using: &rng)!.utf8), at: at)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Structure-level mutation: replace, delete or retype one member anywhere in the tree.
    static func mutateJSON(_ value: JSONValue, rng: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let replacements: [JSONValue] = [.null, .bool(true), .number(-1), .number(0.5), .number(1e18), .string(""),
                                         .string("create"), .array([]), .object([:]), .string(String(repeating: "z", count: 300))]
        switch value {
        case .object(var members) where !members.isEmpty && depth < 6:
            let key = members.keys.sorted().randomElement(using: &rng)!
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: members.removeValue(forKey: key)
            case 1: members[key] = replacements.randomElement(using: &rng)!
            case 2: members["extra\(Int.random(in: 0..<3, using: &rng))"] = replacements.randomElement(using: &rng)!
            default: members[key] = mutateJSON(members[key]!, rng: &rng, depth: depth + 1)
            }
            return .object(members)
        case .array(var items) where !items.isEmpty && depth < 6:
            let at = Int.random(in: 0..<items.count, using: &rng)
            items[at] = Bool.random(using: &rng) ? mutateJSON(items[at], rng: &rng, depth: depth + 1) : replacements.randomElement(using: &rng)!
            return .array(items)
        default:
            return replacements.randomElement(using: &rng)!
        }
    }

    static func mutated(_ seeds: [String], count: Int, seed: UInt64) -> [String] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in
            let base = seeds.randomElement(using: &rng)!
            if Bool.random(using: &rng), let value = json(base) {
                return mutateJSON(value, rng: &rng).jsonText()
            }
            return mutateBytes(base, rng: &rng)
        }
    }

    @Test func liveQueryCoreSurvivesTenThousandMutatedFrames() {
        var harness = LiveQueryHarness()
        _ = harness.bringUp()
        var outcomes = (delivered: 0, ignored: 0, other: 0, emptyIds: 0)
        for frame in Self.mutated(Self.liveSeeds, count: 10_000, seed: 2026) {
            for action in harness.send(.frameReceived(frame)) {
                switch action {
                case .deliver(let row, _):
                    outcomes.delivered += 1
                    if row.objectId.isEmpty { outcomes.emptyIds += 1 }
                case .ignored: outcomes.ignored += 1
                default: outcomes.other += 1
                }
            }
            // A mutated error frame may stop or drop the link; bring it back so later frames reach the decoder.
            if harness.client.phase != .connected {
                _ = harness.send(.stop)
                harness = LiveQueryHarness()
                _ = harness.bringUp()
            }
        }
        #expect(outcomes.ignored > 3000 && outcomes.delivered > 100, "\(outcomes)")
        #expect(outcomes.emptyIds == 0)
    }

    @Test func liveQueryDecoderOnlyThrowsTypedErrorsOnRandomBytes() {
        var rng = SeededRandom(seed: 77)
        var thrown = 0
        for _ in 0..<3000 {
            let bytes = (0..<Int.random(in: 0..<64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            do {
                _ = try LiveQueryServerFrame.decode(String(decoding: bytes, as: UTF8.self))
            } catch {
                thrown += 1
            }
        }
        #expect(thrown == 3000)
    }

    @Test func signalingDecoderOnlyThrowsOrRoundTrips() {
        var decoded = 0, rejected = 0
        for frame in Self.mutated(Self.signalingSeeds, count: 6000, seed: 4242) {
            do {
                let value = try SignalingFrame.decode(frame)
                // Whatever strict decoding accepts must survive its own encoding unchanged.
                #expect(try SignalingFrame.decode(value.text) == value)
                decoded += 1
            } catch {
                rejected += 1
            }
        }
        #expect(decoded > 300 && rejected > 1800, "decoded \(decoded), rejected \(rejected)")
    }

    @Test func responseDecoderOnlyThrowsTypedErrors() {
        let decoder = ParseResponseDecoder()
        var accepted = 0, rejected = 0, acceptedErrorStatus = 0
        for (index, body) in Self.mutated(Self.responseSeeds, count: 2500, seed: 9).enumerated() {
            let bytes = Array(body.utf8)
            let status = [200, 201, 400, 404, 500][index % 5]
            let results: [Bool] = [
                (try? decoder.decode(ActiveSessionRow.self, status: status, body: bytes)) != nil,
                (try? decoder.decode(QueryResults<ActiveSessionRow>.self, status: status, body: bytes)) != nil,
                (try? decoder.decode(UserResponse.self, status: status, body: bytes)) != nil,
            ]
            if results.contains(true) { accepted += 1 } else { rejected += 1 }
            if status >= 300, results.contains(true) { acceptedErrorStatus += 1 }
        }
        #expect(acceptedErrorStatus == 0)
        #expect(accepted > 100 && rejected > 1000, "accepted \(accepted), rejected \(rejected)")
    }
}
