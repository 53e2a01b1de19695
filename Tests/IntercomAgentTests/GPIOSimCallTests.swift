import CallCore
import ControlsCore
import Foundation
import GPIO
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import IntercomTestSupport
import Logging
import ParseClient
import ParseWire
import ServerTestSupport
import ServiceLifecycle
import Synchronization
import Testing

/// Real-kernel tests of the agent's physical controls. Their IDs contain `GPIOSimTests`, as the libgpiod
/// tests' do: the host stage of scripts/test.sh skips them (`--skip GPIOSimTests`, no gpio-sim on the host)
/// and the QEMU harness stage runs them. Without gpio-sim they fail: they do not skip.
enum GPIOSimTests {}

extension GPIOSimTests {
    /// The physical accept button answers a ringing call exactly once (SYSTEM.md §6–§7), against the kernel's
    /// gpio-sim driver in the QEMU harness: a chip of the test's own whose lines the agent finds by name, the
    /// real server in-process, the coordinator with `answer = "button"` and the controls wired as
    /// `AgentRuntime.run` wires them (LibGPIODBackend → GPIOLineRequests → ButtonWatcher → ControlsService →
    /// CallCoordinator → GPIOIndicators → ControlOutputs), a scripted caller in the signaling room and scripted
    /// media. The LED levels are read back from the sim in each state.
    @Suite(.serialized, .timeLimit(.minutes(2))) struct GPIOSimCallTests {
        /// The device's configuration: answered by button, door opening allowed, every control wired. The
        /// door pulse is long so that the relay is still energized when the agent shuts down.
        static func configuration(serverURL: String) throws -> IntercomConfiguration {
            try TestDeviceConfiguration.load(serverURL: serverURL, """
                [call]
                answer = "button"
                allow_door_open = true

                \(ControlLine.gpioSections(prefix: "CALLTEST", doorPulse: "25s"))
                """)
        }

        /// Everything the caller heard in the room, in order.
        final class CallerLog: Sendable {
            private let events = Mutex<[SignalingConnection.Event]>([])

            func record(_ event: SignalingConnection.Event) { events.withLock { $0.append(event) } }
            var all: [SignalingConnection.Event] { events.withLock { $0 } }

            var devicePeer: String? {
                all.lazy.compactMap { event -> String? in
                    if case .peerJoined(let peer) = event { return peer.peerId }
                    return nil
                }.first
            }

            func signals(from peer: String) -> [SignalPayload] {
                all.compactMap { event in
                    if case .signal(let from, let payload) = event, from == peer { return payload }
                    return nil
                }
            }

            func offers(from peer: String) -> Int {
                signals(from: peer).count { if case .offer = $0 { true } else { false } }
            }
        }

        /// Output levels read from the sim's `value` attributes, every 10 ms for a while (-1: unreadable).
        struct Trace: CustomStringConvertible {
            var levels: [ControlLine: [Int]] = [:]

            static func record(_ sim: GPIOSim, for duration: Duration) async throws -> Trace {
                var trace = Trace()
                let end = ContinuousClock.now + duration
                while ContinuousClock.now < end {
                    for line in ControlLine.outputs { trace.levels[line, default: []].append(sim.value(offset: line.rawValue) ?? -1) }
                    try await Task.sleep(for: .milliseconds(10))
                }
                return trace
            }

            func steady(_ line: ControlLine, _ level: Int) -> Bool {
                let seen = levels[line] ?? []
                return !seen.isEmpty && seen.allSatisfy { $0 == level }
            }

            /// Both levels, changing back and forth (not a single step from one to the other).
            func blinks(_ line: ControlLine) -> Bool {
                let seen = levels[line] ?? []
                let changes = zip(seen, seen.dropFirst()).count { $0 != $1 }
                return Set(seen) == [0, 1] && changes >= 3
            }

            func onFraction(_ line: ControlLine) -> Double {
                let seen = levels[line] ?? []
                return seen.isEmpty ? 1 : Double(seen.count { $0 == 1 }) / Double(seen.count)
            }

            /// Run lengths per line, e.g. `status 1×12 0×13 1×12`.
            var description: String {
                ControlLine.outputs.map { line in
                    var runs: [(Int, Int)] = []
                    for level in levels[line] ?? [] {
                        if let last = runs.last, last.0 == level { runs[runs.count - 1].1 += 1 } else { runs.append((level, 1)) }
                    }
                    return "\(line) " + runs.map { "\($0.0)×\($0.1)" }.joined(separator: " ")
                }.joined(separator: "; ")
            }
        }

        /// The coordinator's state changes before it has performed all of the change's actions (it awaits in
        /// between), and a new LED pattern reaches the lines within the output thread's 20 ms poll: a trace
        /// of a state starts this long after the state is seen.
        static let patternSettle: Duration = .milliseconds(200)

        /// A press of a button to ground (pull-up bias, active low, as GPIOSettings defaults): the contact closes,
        /// is held, and opens. A bouncy contact chatters at both ends, edges far quicker than the 30 ms debounce.
        static func press(_ sim: GPIOSim, _ line: ControlLine, hold: Duration = .milliseconds(100), bouncy: Bool = false)
            async throws
        {
            if bouncy { for direction in ["pull-down", "pull-up", "pull-down", "pull-up"] { try sim.pull(direction, offset: line.rawValue) } }
            try sim.pull("pull-down", offset: line.rawValue)
            try await Task.sleep(for: hold)
            if bouncy { for direction in ["pull-up", "pull-down", "pull-up", "pull-down"] { try sim.pull(direction, offset: line.rawValue) } }
            try sim.pull("pull-up", offset: line.rawValue)
        }

        @Test("the accept button answers a ringing call exactly once, hangup ends it, the LEDs show each state, shutdown leaves every line off")
        func acceptButtonAnswersARingingCallOnce() async throws {
            let sim = try GPIOSim.create("intercom-call-\(getpid())", label: "intercom-call-test",
                                         lines: ControlLine.allCases.map(lineName))
            defer { sim.remove() }
            for line in [ControlLine.accept, .hangup, .call] { try sim.pull("pull-up", offset: line.rawValue) }
            let capture = LogCapture()
            let logger = Logger(label: "intercomd") { JournalLogHandler(label: $0, style: .journal, sink: capture.sink) }
            let acceptPresses: @Sendable () -> Int = { capture.lines.count { $0.contains("button accept: press") } }

            try await RunningServer.with { server in
                let configuration = try Self.configuration(serverURL: server.serverURL)
                let gpio = try #require(configuration.gpio)
                let device = try AgentBackendTests.Device()
                let (identity, _, _) = try device.store.loadOrCreateIdentity()
                let session = BackendSession(settings: configuration.backend, identity: identity, store: device.store,
                                             logger: logger, policy: RetryPolicy(maxAttempts: 2))
                let deviceID = try await session.ensureLoggedIn()

                // As AgentRuntime.run wires the controls and the call.
                let backend = LibGPIODBackend()
                let outputs = try GPIOLineRequests.outputs(gpio, backend: backend, consumer: "intercomd")
                let buttons = try GPIOLineRequests.buttons(gpio, backend: backend, consumer: "intercomd")
                #expect(buttons.map(\.0) == [.accept, .call, .hangup])
                let indicators = GPIOIndicators(outputs: outputs, logger: logger)
                let policy = CallPolicy.from(configuration.call)
                #expect(policy.answerMode == .button)
                let coordinator = CallCoordinator(
                    policy: policy, session: session, mediaFactory: CallCoordinatorTests.ScriptedMedia(),
                    indicators: indicators, status: device.status, deviceTitle: configuration.identity.title,
                    logger: logger)
                let (rows, rowSink) = AsyncStream<ActiveSessionRow>.makeStream()
                let services: [any Service] = [
                    CallService(coordinator: coordinator, calls: rows),
                    ControlsService(coordinator: coordinator, outputs: outputs, buttons: buttons, logger: logger),
                ]

                try await AgentBackendTests.running(services) {
                    // The caller creates the call row and waits in the room; the device gets the row as the
                    // intake would hand it over.
                    let (callerClient, caller) = try await server.anonymousClient()
                    let row = NewCallRow(callerID: caller.objectId, callerTitle: "Visitor", receiverID: deviceID)
                    let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
                    let visitor = SignalingConnection(url: created.signalURL ?? "", token: created.subscriberToken ?? "",
                                                      name: "Visitor", logger: RunningServer.logger)
                    let heard = CallerLog()
                    let listening = Task { for await event in visitor.events { heard.record(event) } }
                    defer { listening.cancel() }
                    await visitor.start()
                    try await AgentBackendTests.eventually(within: 10, "the caller joins the room") {
                        heard.all.contains { if case .joined = $0 { true } else { false } }
                    }
                    let found = try await callerClient.send(QueryResults<ActiveSessionRow>.self) {
                        $0.find("ActiveSessions", where: [:], requestId: $1)
                    }
                    rowSink.yield(try #require(found.results.first))

                    // 1. Ringing: both LEDs blink (4 Hz), and no offer goes out while nobody presses accept.
                    try await AgentBackendTests.eventually(within: 10, "the device joins and rings") {
                        heard.devicePeer.map { heard.signals(from: $0).contains(.ringing) } ?? false
                    }
                    let devicePeer = try #require(heard.devicePeer)
                    let ringingSince = ContinuousClock.now
                    let ringing = try await Trace.record(sim, for: .seconds(1))
                    #expect(ringing.blinks(.statusLED) && ringing.blinks(.ringingLED) && ringing.steady(.door, 0),
                            "ringing: \(ringing)")
                    try await Task.sleep(until: ringingSince + .seconds(2))
                    #expect(heard.offers(from: devicePeer) == 0, "an offer while ringing: \(heard.all)")
                    guard case .ringing = await coordinator.state else {
                        throw TestFailure("not ringing before accept was pressed: \(await coordinator.state)")
                    }

                    // 2. A bouncy press of accept answers; a clean press right behind it (still connecting)
                    // changes nothing: exactly one offer reaches the caller.
                    try await Self.press(sim, .accept, hold: .milliseconds(150), bouncy: true)
                    try await Task.sleep(for: .milliseconds(300))
                    try await Self.press(sim, .accept)
                    try await AgentBackendTests.eventually(within: 5, "the offer after accept") {
                        heard.offers(from: devicePeer) > 0
                    }
                    let offeredAt = ContinuousClock.now
                    guard case .connecting = await coordinator.state else {
                        throw TestFailure("not connecting after the offer: \(await coordinator.state)")
                    }
                    try await Task.sleep(for: Self.patternSettle)
                    let connecting = try await Trace.record(sim, for: .seconds(1))
                    #expect(connecting.blinks(.statusLED) && connecting.steady(.ringingLED, 1) && connecting.steady(.door, 0),
                            "connecting: \(connecting)")
                    try await Task.sleep(until: offeredAt + .seconds(3))
                    #expect(heard.offers(from: devicePeer) == 1, "offers: \(heard.signals(from: devicePeer))")
                    #expect(acceptPresses() >= 2, "both accept presses must reach the coordinator: \(capture.lines)")

                    // Media up (the caller answers the offer): in call, both LEDs steady on.
                    await visitor.send(.answer(sdp: "v=0 answer"), to: devicePeer)
                    try await AgentBackendTests.eventually(within: 5, "in call") {
                        if case .inCall = await coordinator.state { return true }
                        return false
                    }
                    try await Task.sleep(for: Self.patternSettle)
                    let inCall = try await Trace.record(sim, for: .seconds(1))
                    #expect(inCall.steady(.statusLED, 1) && inCall.steady(.ringingLED, 1) && inCall.steady(.door, 0),
                            "in call: \(inCall)")

                    // 3. Accept again during the call: the press arrives, and nothing new goes to the caller.
                    let heardBefore = heard.all.count
                    let pressesBefore = acceptPresses()
                    try await Self.press(sim, .accept)
                    try await AgentBackendTests.eventually(within: 3, "the in-call accept press reaches the agent") {
                        acceptPresses() > pressesBefore
                    }
                    try await Task.sleep(for: .seconds(2))
                    #expect(Array(heard.all.dropFirst(heardBefore)) == [], "sent after accept in a call")
                    guard case .inCall = await coordinator.state else {
                        throw TestFailure("accept in a call left the call: \(await coordinator.state)")
                    }

                    // The caller opens the door: the relay pulls in (and stays for its 25 s pulse).
                    await visitor.send(.door(action: "open"), to: devicePeer)
                    try await AgentBackendTests.eventually(within: 3, "the door relay pulls in") {
                        sim.value(offset: ControlLine.door.rawValue) == 1
                    }

                    // 4. Hangup: the caller hears `bye`, the LEDs go back to idle (ringing LED off, the status
                    // LED off but for its 100 ms blink every 5 s).
                    try await Self.press(sim, .hangup)
                    try await AgentBackendTests.eventually(within: 5, "a bye after hangup") {
                        heard.signals(from: devicePeer).contains { if case .bye = $0 { true } else { false } }
                    }
                    #expect(heard.signals(from: devicePeer).last == .bye(.hangup))
                    try await AgentBackendTests.eventually(within: 5, "idle after hangup") { await coordinator.state == .idle }
                    try await Task.sleep(for: Self.patternSettle)
                    let idle = try await Trace.record(sim, for: .seconds(1))
                    #expect(idle.steady(.ringingLED, 0) && idle.onFraction(.statusLED) <= 0.2, "idle: \(idle)")
                    #expect(heard.offers(from: devicePeer) == 1)
                    await visitor.close()

                    // Lamp test, so that the shutdown has lit LEDs (and the energized relay) to switch off.
                    await indicators.show(.inCall)
                    try await AgentBackendTests.eventually(within: 2, "the LEDs light up") {
                        ControlLine.outputs.allSatisfy { sim.value(offset: $0.rawValue) == 1 }
                    }
                }

                // 5. Shut down (as SIGTERM would): every output reads inactive, every line is released.
                let finished = (try? await AgentBackendTests.eventually(within: 3, "the GPIO threads finish") {
                    outputs.hasFinished && buttons.allSatisfy { $0.1.hasFinished }
                }) != nil
                for line in ControlLine.outputs {
                    #expect(sim.value(offset: line.rawValue) == 0, "\(line) after shutdown")
                }
                try #require(finished, "the button and output threads did not finish: lines still held")
                for line in ControlLine.allCases {
                    let request = GPIOLineRequest(address: .named(lineName(line)))
                    if ControlLine.outputs.contains(line) {
                        try backend.requestOutput(request, initiallyActive: false).release()
                    } else {
                        try backend.requestInput(request).release()
                    }
                }
            }
        }

        @Test("a button line another consumer holds fails the controls, and the buttons claimed before it are released")
        func aBusyButtonLineReleasesTheOthers() async throws {
            let sim = try GPIOSim.create("intercom-call-\(getpid())", label: "intercom-call-test",
                                         lines: ControlLine.allCases.map(lineName))
            defer { sim.remove() }
            let gpio = try #require(try Self.configuration(serverURL: "http://127.0.0.1:1/parse").gpio)
            let backend = LibGPIODBackend()
            // Buttons are claimed in role order (accept, call, hangup): hangup, held elsewhere, fails last.
            let held = try backend.requestInput(GPIOLineRequest(address: .named(lineName(.hangup)), consumer: "someone else"))
            defer { held.release() }
            #expect {
                _ = try GPIOLineRequests.buttons(gpio, backend: backend, consumer: "intercomd")
            } throws: { ($0 as? GPIOError)?.kind == .busy }
            // Their watcher threads let go within one poll (100 ms).
            try await AgentBackendTests.eventually(within: 2, "accept and call are free again") {
                [ControlLine.accept, .call].allSatisfy { line in
                    guard let again = try? backend.requestInput(GPIOLineRequest(address: .named(lineName(line)))) else { return false }
                    again.release()
                    return true
                }
            }
        }
    }
}

/// This suite's name of a control line on its sim chip.
private func lineName(_ line: GPIOSimTests.ControlLine) -> String { line.name(prefix: "CALLTEST") }
