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

extension GPIOSimTests {
    /// Issue #23, items 3 and 4, on the kernel's gpio-sim in the QEMU harness: a stuck accept button, a
    /// chattering hangup button, and an LED line another consumer holds at start. The controls are wired as
    /// `AgentRuntime.run` wires them (ControlsService claims the lines itself and retries, GPIOIndicators,
    /// CallCoordinator, the real server in-process, scripted media); callers are scripted in the room.
    ///
    /// The durations are the issue's: accept held for 2 minutes (with the default `gpio.stuck_after`, 30 s),
    /// hangup toggled at 5 Hz for a minute, the LED line held for 20 s. About 4 minutes in all.
    @Suite(.serialized, .timeLimit(.minutes(4))) struct GPIOSimUnattendedTests {
        static func configuration(serverURL: String, answer: String) throws -> IntercomConfiguration {
            try TestDeviceConfiguration.load(serverURL: serverURL, """
                [call]
                answer = "\(answer)"

                \(ControlLine.gpioSections(prefix: "UNATTENDED"))
                """)
        }

        /// The device as `AgentRuntime.run` assembles its call and controls, running for `body`.
        struct Device: Sendable {
            let coordinator: CallCoordinator
            let status: AgentStatusBoard
            let deviceID: String
            let server: RunningServer
            let capture: LogCapture
            /// Where call rows reach the device, as from the intake.
            let rows: AsyncStream<ActiveSessionRow>.Continuation

            var warnings: [String] { get async { await status.snapshot.warnings } }
            var doNotDisturb: Bool {
                get async { await status.callState?.hasSuffix(CallStateMachine.doNotDisturbNote) ?? false }
            }

            static func run(answer: String, _ body: @Sendable (Device) async throws -> Void) async throws {
                let capture = LogCapture()
                let logger = Logger(label: "intercomd") { JournalLogHandler(label: $0, style: .journal, sink: capture.sink) }
                try await RunningServer.with { server in
                    let configuration = try GPIOSimUnattendedTests.configuration(serverURL: server.serverURL, answer: answer)
                    let gpio = try #require(configuration.gpio)
                    let state = try AgentBackendTests.Device()
                    let status = AgentStatusBoard(title: "Gate 3", logger: logger)
                    let (identity, _, _) = try state.store.loadOrCreateIdentity()
                    let session = BackendSession(settings: configuration.backend, identity: identity, store: state.store,
                                                 logger: logger, policy: RetryPolicy(maxAttempts: 2))
                    let deviceID = try await session.ensureLoggedIn()
                    let indicators = GPIOIndicators(logger: logger)
                    let coordinator = CallCoordinator(
                        policy: CallPolicy.from(configuration.call), session: session,
                        mediaFactory: CallCoordinatorTests.ScriptedMedia(), indicators: indicators, status: status,
                        deviceTitle: configuration.identity.title, logger: logger)
                    let (rows, rowSink) = AsyncStream<ActiveSessionRow>.makeStream()
                    let services: [any Service] = [
                        CallService(coordinator: coordinator, calls: rows),
                        ControlsService(gpio: gpio, backend: LibGPIODBackend(), coordinator: coordinator,
                                        indicators: indicators, status: status, logger: logger),
                    ]
                    let device = Device(coordinator: coordinator, status: status, deviceID: deviceID, server: server,
                                        capture: capture, rows: rowSink)
                    try await AgentBackendTests.running(services) {
                        try await body(device)
                    }
                }
            }

            /// A caller rings the device and waits in the room; the row goes to the coordinator as the intake
            /// would hand it over. Returns the caller's view of the room once the device said `ringing`.
            func call() async throws -> Caller {
                let (callerClient, callerUser) = try await server.anonymousClient()
                let row = NewCallRow(callerID: callerUser.objectId, callerTitle: "Visitor", receiverID: deviceID)
                let created = try await callerClient.send(CallCreateResponse.self) { $0.createCall(row, requestId: $1) }
                let visitor = SignalingConnection(url: created.signalURL ?? "", token: created.subscriberToken ?? "",
                                                  name: "Visitor", logger: RunningServer.logger)
                let heard = GPIOSimCallTests.CallerLog()
                let listening = Task { for await event in visitor.events { heard.record(event) } }
                await visitor.start()
                try await AgentBackendTests.eventually(within: 10, "the caller joins the room") {
                    heard.all.contains { if case .joined = $0 { true } else { false } }
                }
                let found = try await callerClient.send(QueryResults<ActiveSessionRow>.self) {
                    $0.find("ActiveSessions", where: [:], requestId: $1)
                }
                rows.yield(try #require(found.results.first { $0.sessionID == created.sessionID }))
                try await AgentBackendTests.eventually(within: 10, "the device joins and says ringing") {
                    heard.devicePeer.map { heard.signals(from: $0).contains(.ringing) } ?? false
                }
                return Caller(visitor: visitor, heard: heard, devicePeer: try #require(heard.devicePeer), listening: listening)
            }
        }

        struct Caller: Sendable {
            let visitor: SignalingConnection
            let heard: GPIOSimCallTests.CallerLog
            let devicePeer: String
            let listening: Task<Void, Never>

            var offers: Int { heard.offers(from: devicePeer) }
            var byes: [SignalPayload] { heard.signals(from: devicePeer).filter { if case .bye = $0 { true } else { false } } }

            /// The device answered: its offer arrived.
            func expectAnswered(within seconds: Double) async throws {
                try await AgentBackendTests.eventually(within: seconds, "the device's offer") { offers > 0 }
                #expect(byes.isEmpty, "refused: \(heard.all)")
            }

            /// The caller hangs up and leaves; the device is free again.
            func hangUp(_ device: Device) async throws {
                await visitor.send(.bye(.hangup), to: devicePeer)
                await visitor.close()
                listening.cancel()
                try await AgentBackendTests.eventually(within: 10, "the device is free after the caller hung up") {
                    switch await device.coordinator.state {
                    case .idle, .fault: true
                    default: false
                    }
                }
            }
        }

        static func makeSim() throws -> GPIOSim {
            let sim = try GPIOSim.create("intercom-unattended-\(getpid())", label: "intercom-unattended-test",
                                         lines: ControlLine.allCases.map(lineName))
            for line in [ControlLine.accept, .hangup, .call] { try sim.pull("pull-up", offset: line.rawValue) }
            return sim
        }

        @Test("an accept button held for 2 minutes is reported stuck, does not leave do-not-disturb on, and calls are answered meanwhile")
        func aStuckAcceptIsIgnoredAndCallsAreAnswered() async throws {
            let sim = try Self.makeSim()
            defer { sim.remove() }
            try await Device.run(answer: "button") { device in
                try await AgentBackendTests.eventually(within: 10, "the lines are claimed") {
                    await device.status.controlsClaimed == true
                }
                let heldSince = ContinuousClock.now
                try sim.pull("pull-down", offset: ControlLine.accept.rawValue)
                // Its long press (2 s) switches do-not-disturb on, as a person's would ...
                try await AgentBackendTests.eventually(within: 6, "do-not-disturb from the hold's long press") {
                    await device.doNotDisturb
                }
                // ... and the stuck report (30 s, the default gpio.stuck_after) undoes it.
                try await AgentBackendTests.eventually(within: 40, "button_stuck on /health") {
                    await device.warnings.contains("button_stuck")
                }
                #expect(await device.status.stuckButtons == ["accept"])
                #expect(device.capture.lines.contains { $0.contains("button accept is stuck") }, "\(device.capture.lines)")
                try await AgentBackendTests.eventually(within: 2, "do-not-disturb off after the stuck report") {
                    !(await device.doNotDisturb)
                }
                // Idle, so the ringing LED next to the button would be off: it double-blinks instead.
                try await AgentBackendTests.eventually(within: 3, "the ringing LED's double blink for a faulty button") {
                    sim.value(offset: ControlLine.ringingLED.rawValue) == 1
                }

                // Still held: calls in button mode are answered by themselves, now and a minute later.
                for answerAt in [Duration.seconds(35), .seconds(80)] {
                    try await Task.sleep(until: heldSince + answerAt)
                    let caller = try await device.call()
                    try await caller.expectAnswered(within: 10)
                    try await caller.hangUp(device)
                }

                try await Task.sleep(until: heldSince + .seconds(120))
                #expect(await device.warnings.contains("button_stuck"))
                #expect(!(await device.doNotDisturb))
                #expect(!device.capture.lines.contains { $0.contains("button accept: press") }, "the stuck hold answered nothing")

                // Released: the warning clears and button mode is back (the next call rings for a person).
                try sim.pull("pull-up", offset: ControlLine.accept.rawValue)
                try await AgentBackendTests.eventually(within: 5, "the stuck warning clears") {
                    await device.warnings.isEmpty
                }
                try await Task.sleep(for: .milliseconds(200))
                let dark = try await GPIOSimCallTests.Trace.record(sim, for: .milliseconds(2_500))
                #expect(dark.steady(.ringingLED, 0), "the ringing LED after the release: \(dark)")
                let next = try await device.call()
                try await Task.sleep(for: .seconds(2))
                #expect(next.offers == 0, "button mode answered without a press: \(next.heard.all)")
                try await GPIOSimCallTests.press(sim, .accept)
                try await next.expectAnswered(within: 5)
                try await next.hangUp(device)
                #expect(!(await device.doNotDisturb))
            }
        }

        @Test("a hangup line chattering at 5 Hz for a minute is reported and declines no call")
        func aChatteringHangupDeclinesNothing() async throws {
            let sim = try Self.makeSim()
            defer { sim.remove() }
            try await Device.run(answer: "button") { device in
                try await AgentBackendTests.eventually(within: 10, "the lines are claimed") {
                    await device.status.controlsClaimed == true
                }
                let chatterSince = ContinuousClock.now
                let chatter = Task {
                    var down = true
                    while !Task.isCancelled, ContinuousClock.now < chatterSince + .seconds(60) {
                        try? sim.pull(down ? "pull-down" : "pull-up", offset: ControlLine.hangup.rawValue)
                        down.toggle()
                        try? await Task.sleep(for: .milliseconds(100))
                    }
                    try? sim.pull("pull-up", offset: ControlLine.hangup.rawValue)
                }
                defer { chatter.cancel() }
                try await AgentBackendTests.eventually(within: 10, "button_chattering on /health") {
                    await device.warnings.contains("button_chattering")
                }
                #expect(await device.status.chatteringButtons == ["hangup"])
                try await AgentBackendTests.eventually(within: 3, "the ringing LED's double blink for a faulty button") {
                    sim.value(offset: ControlLine.ringingLED.rawValue) == 1
                }

                // Calls while the line chatters on: each rings and is not declined, and accept still answers.
                for callAt in [Duration.seconds(5), .seconds(35)] {
                    try await Task.sleep(until: chatterSince + callAt)
                    let caller = try await device.call()
                    try await Task.sleep(for: .seconds(8))
                    #expect(caller.byes.isEmpty, "declined by a chattering hangup: \(caller.heard.all)")
                    guard case .ringing = await device.coordinator.state else {
                        throw TestFailure("not ringing any more: \(await device.coordinator.state)")
                    }
                    try await GPIOSimCallTests.press(sim, .accept)
                    try await caller.expectAnswered(within: 5)
                    try await Task.sleep(for: .seconds(3))
                    #expect(caller.byes.isEmpty, "ended by a chattering hangup: \(caller.heard.all)")
                    try await caller.hangUp(device)
                }
                _ = await chatter.value
                #expect(ContinuousClock.now - chatterSince >= .seconds(60))

                // Quiet for 10 s: the warning clears and hangup works again.
                try await AgentBackendTests.eventually(within: 15, "the chatter warning clears") {
                    await device.warnings.isEmpty
                }
                let next = try await device.call()
                try await GPIOSimCallTests.press(sim, .hangup)
                try await AgentBackendTests.eventually(within: 5, "hangup declines again") { !next.byes.isEmpty }
                #expect(next.byes.last == .bye(.declined))
                await next.visitor.close()
                next.listening.cancel()
            }
        }

        @Test("an LED line held by another consumer for 20 s at start: calls are answered meanwhile, then the fault clears and the LEDs work")
        func aBusyLEDLineIsClaimedLater() async throws {
            let sim = try Self.makeSim()
            defer { sim.remove() }
            let backend = LibGPIODBackend()
            let held = ForeignHold(try backend.requestOutput(
                GPIOLineRequest(address: .named(lineName(.statusLED)), consumer: "someone else"), initiallyActive: false))
            let heldSince = ContinuousClock.now
            defer { held.release() }
            try await Device.run(answer: "auto") { device in
                try await AgentBackendTests.eventually(within: 10, "the fault while the line is held") {
                    await device.coordinator.state == .fault
                }
                #expect(await device.warnings.contains("gpio_unclaimed"))
                #expect(await device.status.callState == "fault: missing gpio")

                let caller = try await device.call()
                try await caller.expectAnswered(within: 10)
                try await caller.hangUp(device)
                #expect(await device.coordinator.state == .fault)
                #expect(device.capture.lines.count { $0.contains("could not be claimed") } == 1,
                        "logged once per streak: \(device.capture.lines)")

                try await Task.sleep(until: heldSince + .seconds(20))
                held.release()
                try await AgentBackendTests.eventually(within: 15, "the fault clears once the line is free") {
                    await device.coordinator.state == .idle
                }
                #expect(await device.warnings.isEmpty)
                #expect(device.capture.lines.contains { $0.contains("the GPIO lines are claimed after") })
                // The LEDs work: the status LED gives its idle blink (100 ms every 5 s), and intercomd holds it.
                try await AgentBackendTests.eventually(within: 7, "the idle blink on the status LED") {
                    sim.value(offset: ControlLine.statusLED.rawValue) == 1
                }
                #expect(throws: GPIOError.self) {
                    try backend.requestOutput(GPIOLineRequest(address: .named(lineName(.statusLED))), initiallyActive: false)
                }
                let next = try await device.call()
                try await next.expectAnswered(within: 10)
                try await next.hangUp(device)
            }
        }
    }
}

/// Another consumer's hold on an output line, released once: by the test when its time is up, or at the end.
final class ForeignHold: Sendable {
    private let line: Mutex<(any GPIOOutputLine)?>

    init(_ line: sending any GPIOOutputLine) {
        self.line = Mutex(line)
    }

    func release() {
        line.withLock { line in
            line?.release()
            line = nil
        }
    }
}

/// This suite's name of a control line on its sim chip.
private func lineName(_ line: GPIOSimTests.ControlLine) -> String { line.name(prefix: "UNATTENDED") }
