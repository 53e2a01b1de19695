import Foundation
import Media
import Synchronization
import Testing

@Suite struct EncodedFrameBroadcasterTests {
    static func frame(_ index: Int, keyframeEvery: Int = 10) -> EncodedFrame {
        EncodedFrame(
            bytes: [UInt8](repeating: UInt8(index & 0xFF), count: 1000), captureTime: .milliseconds(33 * index),
            rtpTimestamp: UInt32(index * 3000), isKeyframe: index % keyframeEvery == 0)
    }

    static func address(of bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    @Test func threeSubscribersOneSlowTheProducerNeverWaitsAndFastOnesGetEverything() async throws {
        let requests = Atomic<Int>(0)
        let broadcaster = EncodedFrameBroadcaster { requests.add(1, ordering: .relaxed) }
        // Fast viewers keep up (their queue could hold the whole run); the slow one holds one frame and
        // does not read at all until the producer is done.
        let fast = [broadcaster.subscribe(bufferDepth: 64), broadcaster.subscribe(bufferDepth: 64)]
        let slow = broadcaster.subscribe()
        #expect(requests.load(ordering: .relaxed) == 3)  // one keyframe request per join

        let published = (0..<60).map { Self.frame($0) }
        let readers = fast.map { subscription in
            Task { await subscription.frames.reduce(into: [EncodedFrame]()) { $0.append($1) } }
        }
        let slowestPublish = await withCheckedContinuation { (continuation: CheckedContinuation<Duration, Never>) in
            // The producer is a plain thread, like the encoder thread it stands for.
            Thread {
                var slowest = Duration.zero
                for frame in published {
                    let start = ContinuousClock.now
                    broadcaster.publish(frame)
                    slowest = max(slowest, ContinuousClock.now - start)
                    Thread.sleep(forTimeInterval: 0.001)
                }
                broadcaster.finish()
                continuation.resume(returning: slowest)
            }.start()
        }
        // Reaching this point at all shows the producer never waited for the slow viewer, which reads
        // nothing until the producer is done; the bound only catches pathological stalls.
        #expect(slowestPublish < .seconds(1), "publish took \(slowestPublish)")

        for (subscription, reader) in zip(fast, readers) {
            let received = await reader.value
            #expect(received == published)
            #expect(subscription.enqueuedCount == 60 && subscription.droppedCount == 0)
            // Shared, not copied: the subscriber sees the very buffer the producer published.
            #expect(zip(received, published).allSatisfy { Self.address(of: $0.bytes) == Self.address(of: $1.bytes) })
        }

        let slowReceived = await slow.frames.reduce(into: [EncodedFrame]()) { $0.append($1) }
        #expect(slowReceived.count == 1)
        #expect(slow.droppedCount == 59)
        #expect(slow.enqueuedCount + slow.droppedCount == published.count)
        #expect(requests.load(ordering: .relaxed) > 3)  // the slow viewer's holes asked for keyframes
    }

    @Test func aNewSubscriberStartsAtTheNextKeyframe() async {
        let broadcaster = EncodedFrameBroadcaster {}
        let subscription = broadcaster.subscribe(bufferDepth: 8)
        for index in [1, 2, 10, 11] { broadcaster.publish(Self.frame(index)) }
        broadcaster.finish()
        let received = await subscription.frames.reduce(into: [Int]()) { $0.append(Int($1.rtpTimestamp) / 3000) }
        #expect(received == [10, 11])
        #expect(subscription.droppedCount == 2)
    }

    @Test func cancellingUnsubscribesAndFinishesTheStream() async {
        let broadcaster = EncodedFrameBroadcaster {}
        let leaving = broadcaster.subscribe(bufferDepth: 8)
        let staying = broadcaster.subscribe(bufferDepth: 8)
        broadcaster.publish(Self.frame(0))
        leaving.cancel()
        #expect(broadcaster.subscriberCount == 1)
        broadcaster.publish(Self.frame(1))
        broadcaster.finish()
        #expect(await leaving.frames.reduce(0) { count, _ in count + 1 } == 1)
        #expect(await staying.frames.reduce(0) { count, _ in count + 1 } == 2)
        #expect(broadcaster.subscriberCount == 0)
        let late = broadcaster.subscribe()
        #expect(await late.frames.reduce(0) { count, _ in count + 1 } == 0)
    }

    @Test func aConsumerTaskThatIsCancelledLeavesTheBroadcaster() async throws {
        let broadcaster = EncodedFrameBroadcaster {}
        let subscription = broadcaster.subscribe()
        let reader = Task { for await _ in subscription.frames {} }
        reader.cancel()
        await reader.value
        #expect(broadcaster.subscriberCount == 0)
    }
}
