import Testing
@testable import WebRTC

/// The send queue between peer connections and the GLib thread: one drain job per burst, order kept, bounded.
struct DatagramOutboxTests {
    static func entry(_ byte: UInt8, retry: Bool = false) -> DatagramOutbox.Entry {
        DatagramOutbox.Entry(bytes: [byte], retryIfUnsent: retry)
    }

    @Test func onlyTheFirstDatagramOfABurstSchedulesADrain() {
        let outbox = DatagramOutbox(limit: 16)
        #expect(outbox.append(Self.entry(1)))
        #expect(!outbox.append(Self.entry(2)))
        #expect(!outbox.append(Self.entry(3, retry: true)))
        let taken = outbox.take()
        #expect(taken.map(\.bytes) == [[1], [2], [3]])
        #expect(taken.map(\.retryIfUnsent) == [false, false, true])
        #expect(outbox.take().isEmpty)
        // After a drain took the queue, the next datagram needs a new drain.
        #expect(outbox.append(Self.entry(4)))
        #expect(outbox.take().map(\.bytes) == [[4]])
        #expect(outbox.unsent == 0)
    }

    @Test func aFullOutboxDropsTheOldestAndCountsIt() {
        let outbox = DatagramOutbox(limit: 3)
        for byte in UInt8(1)...5 { _ = outbox.append(Self.entry(byte)) }
        #expect(outbox.take().map(\.bytes) == [[3], [4], [5]])
        #expect(outbox.unsent == 2)
    }

    @Test func aDrainRacingProducersNeverLosesOrReordersADatagram() async {
        let outbox = DatagramOutbox(limit: 100_000)
        let producers = 4
        let perProducer = 2_000
        let drained = await withTaskGroup(of: [[UInt8]].self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<perProducer {
                        _ = outbox.append(DatagramOutbox.Entry(
                            bytes: [UInt8(producer), UInt8(index >> 8), UInt8(index & 0xff)], retryIfUnsent: false))
                    }
                    return []
                }
            }
            group.addTask {
                var seen: [[UInt8]] = []
                while seen.count < producers * perProducer {
                    seen += outbox.take().map(\.bytes)
                    await Task.yield()
                }
                return seen
            }
            var all: [[UInt8]] = []
            for await part in group { all += part }
            return all
        }
        #expect(drained.count == producers * perProducer)
        for producer in 0..<producers {
            let indices = drained.filter { $0[0] == UInt8(producer) }.map { Int($0[1]) << 8 | Int($0[2]) }
            #expect(indices == Array(0..<perProducer), "producer \(producer) out of order or incomplete")
        }
    }
}
