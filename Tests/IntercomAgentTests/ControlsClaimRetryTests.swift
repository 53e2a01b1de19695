import CallCore
import ControlsCore
import Glibc
import GPIO
import IntercomAgent
import IntercomConfig
import IntercomPlatform
import IntercomTestSupport
import Logging
import ParseClient
import ParseWire
import ServiceLifecycle
import Synchronization
import Testing

/// The controls service on simulated lines (issue #23, item 4): a line busy at start costs the LEDs and
/// buttons only until it can be claimed; the call machine shows `fault` meanwhile and leaves it after.
@Suite struct ControlsClaimRetryTests {
    /// Simulated lines where the first `busyRequests` requests of `busyLine` fail as busy (another program
    /// holds it), as libgpiod reports EBUSY.
    final class BusyAtFirst: GPIOBackend {
        let lines: SimulatedGPIOBackend
        let busyLine: String
        let busyRequests: Int
        private let refusals = Mutex(0)

        init(busyLine: String, busyRequests: Int, lines: SimulatedGPIOBackend) {
            self.lines = lines
            self.busyLine = busyLine
            self.busyRequests = busyRequests
        }

        var refusalsMade: Int { refusals.withLock { $0 } }

        private func refuse(_ request: GPIOLineRequest) throws(GPIOError) {
            guard case .named(let name) = request.address, name == busyLine else { return }
            let refuses = refusals.withLock { made in
                guard made < busyRequests else { return false }
                made += 1
                return true
            }
            if refuses {
                throw GPIOError(kind: .busy, line: name, cause: SystemCallError(call: "test", errno: EBUSY, path: name))
            }
        }

        func requestInput(_ request: GPIOLineRequest) throws(GPIOError) -> any GPIOInputLine {
            try refuse(request)
            return try lines.requestInput(request)
        }

        func requestOutput(_ request: GPIOLineRequest, initiallyActive: Bool) throws(GPIOError) -> any GPIOOutputLine {
            try refuse(request)
            return try lines.requestOutput(request, initiallyActive: initiallyActive)
        }
    }

    @Test("a status LED line busy for three tries: fault and gpio_unclaimed meanwhile, then idle, the LEDs lit, logged once each way")
    func aBusyLineIsClaimedOnALaterTry() async throws {
        let configuration = try TestDeviceConfiguration.load(serverURL: "http://127.0.0.1:1/parse", """
            [call]
            answer = "button"
            [gpio.buttons.accept]
            line = "ACCEPT"
            [gpio.leds.status]
            line = "LED_STATUS"
            """)
        let gpio = try #require(configuration.gpio)
        let statusLED = Mutex<[Bool]>([])
        let simulated = SimulatedGPIOBackend { line, active in
            if line == "LED_STATUS" { statusLED.withLock { $0.append(active) } }
        }
        let backend = BusyAtFirst(busyLine: "LED_STATUS", busyRequests: 3, lines: simulated)
        let capture = LogCapture()
        let logger = Logger(label: "intercomd") { JournalLogHandler(label: $0, style: .journal, sink: capture.sink) }
        let device = try AgentBackendTests.Device()
        let (identity, _, _) = try device.store.loadOrCreateIdentity()
        let session = BackendSession(settings: configuration.backend, identity: identity, store: device.store,
                                     logger: logger, policy: RetryPolicy(maxAttempts: 1))
        let status = AgentStatusBoard(title: "Gate 3")
        let indicators = GPIOIndicators(logger: logger)
        let coordinator = CallCoordinator(
            policy: CallPolicy.from(configuration.call), session: session, mediaFactory: CallCoordinatorTests.ScriptedMedia(),
            indicators: indicators, status: status, deviceTitle: "Gate 3", logger: logger)
        // Slow enough to see the fault on a loaded machine, fast enough for a unit test: tries at 0, 0.5, 1.5
        // and 2.5 s.
        let retry = LineClaimRetry(firstDelay: .milliseconds(500), maximumDelay: .seconds(1))
        let controls = ControlsService(gpio: gpio, backend: backend, coordinator: coordinator, indicators: indicators,
                                       status: status, retry: retry, logger: logger)
        await coordinator.begin()

        try await AgentBackendTests.running([controls]) {
            try await AgentBackendTests.eventually(within: 2, "the fault while the line is busy") {
                await coordinator.state == .fault
            }
            #expect(await status.snapshot.warnings == ["gpio_unclaimed"])
            #expect(await status.callState == "fault: missing gpio")
            try await AgentBackendTests.eventually(within: 8, "idle once the line is claimed") {
                await coordinator.state == .idle
            }
            #expect(backend.refusalsMade == 3)
            #expect(await status.snapshot.warnings == [])
            #expect(await status.controlsClaimed == true)
            // The idle pattern starts with its blink: the LED line, claimed late, shows the machine's pattern.
            try await AgentBackendTests.eventually(within: 2, "the status LED lights") {
                statusLED.withLock { $0.contains(true) }
            }
            try await AgentBackendTests.eventually(within: 2, "the accept button is watched too") {
                simulated.isWatched("ACCEPT")
            }
        }
        #expect(capture.lines.count { $0.contains("the GPIO lines could not be claimed") } == 1, "\(capture.lines)")
        #expect(capture.lines.count { $0.contains("the GPIO lines are claimed after 3 failed attempts") } == 1, "\(capture.lines)")
        await coordinator.shutdown()
    }
}
