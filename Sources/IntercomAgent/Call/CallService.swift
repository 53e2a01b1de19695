import Logging
import ParseWire
import ServiceLifecycle

/// The call service of the agent: hands every row the intake delivers to the coordinator, and on graceful
/// shutdown ends any call in progress (a `bye` to the peer, media and rooms closed).
public struct CallService: Service {
    let coordinator: CallCoordinator
    let calls: AsyncStream<ActiveSessionRow>

    public init(coordinator: CallCoordinator, calls: AsyncStream<ActiveSessionRow>) {
        self.coordinator = coordinator
        self.calls = calls
    }

    public func run() async throws {
        await coordinator.begin()
        await cancelWhenGracefulShutdown {
            for await row in calls { await coordinator.incoming(row) }
        }
        await coordinator.shutdown()
    }
}
