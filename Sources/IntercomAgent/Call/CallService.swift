import Logging
import ParseWire
import ServiceLifecycle

/// The call service of the agent: hands every row the intake delivers to the coordinator, and on graceful
/// shutdown ends any call in progress (a `bye` to the peer, media and rooms closed).
public struct CallService: Service {
    let coordinator: CallCoordinator
    let calls: AsyncStream<ActiveSessionRow>
    /// Devices found missing at start (reported to the machine once it runs).
    let faults: [String]

    public init(coordinator: CallCoordinator, calls: AsyncStream<ActiveSessionRow>, faults: [String] = []) {
        self.coordinator = coordinator
        self.calls = calls
        self.faults = faults
    }

    public func run() async throws {
        await coordinator.begin()
        for device in faults { await coordinator.deviceFault(device) }
        await cancelWhenGracefulShutdown {
            for await row in calls { await coordinator.incoming(row) }
        }
        await coordinator.shutdown()
    }
}
