import Foundation
import IntercomPlatform

/// Text to speech with espeak-ng, for the whole process (the library is global state and not thread-safe):
/// requests queue up and are synthesized one after another on one named thread, `intercom-speech`, which
/// starts with the first request and initializes the library there. Callers never block: `synthesize`
/// queues and returns, its completion runs on the speech thread.
///
/// A library that cannot start (espeak-ng-data missing) fails every request with the same `SpeechError`.
public final class SpeechSynthesizer: @unchecked Sendable {
    // @unchecked: `jobs` and `started` are guarded by `condition`.
    public static let shared = SpeechSynthesizer()

    public typealias Completion = @Sendable (Result<SpokenAudio, SpeechError>) -> Void

    private struct Job {
        var text: String
        var voice: String
        var limit: Int
        var completion: Completion
    }

    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var started = false
    private let dataPath: String?

    /// `dataPath`: espeak-ng-data's directory (nil: the library's default). Only one synthesizer may ever
    /// run in a process; the agent uses `shared`.
    init(dataPath: String? = nil) {
        self.dataPath = dataPath
    }

    /// Queues `text` (cleaned and cut to `limit` characters by `SpeechText.clean`) for `voice`.
    public func synthesize(_ text: String, voice: String = "en", limit: Int = SpeechText.defaultLimit,
                           completion: @escaping Completion) {
        condition.lock()
        jobs.append(Job(text: text, voice: voice, limit: limit, completion: completion))
        let start = !started
        started = true
        condition.signal()
        condition.unlock()
        if start { NamedThread.start("intercom-speech") { [self] in run() } }
    }

    /// `synthesize` for async callers: suspends (never blocks a pool thread) until the speech thread is done.
    public func synthesize(_ text: String, voice: String = "en", limit: Int = SpeechText.defaultLimit)
        async throws(SpeechError) -> SpokenAudio
    {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<SpokenAudio, SpeechError>, Never>) in
            synthesize(text, voice: voice, limit: limit) { done.resume(returning: $0) }
        }
        return try result.get()
    }

    private func nextJob() -> Job {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst()
    }

    /// The speech thread: the engine is made here, once, and used only here.
    private func run() {
        let engine: Result<EspeakEngine, SpeechError>
        do throws(SpeechError) {
            engine = .success(try EspeakEngine(dataPath: dataPath))
        } catch {
            engine = .failure(error)
        }
        while true {
            let job = nextJob()
            let start = ContinuousClock.now
            let text = SpeechText.clean(job.text, limit: job.limit)
            job.completion(engine.flatMap { engine in
                do throws(SpeechError) {
                    let samples = try engine.speak(text, voice: job.voice)
                    return .success(SpokenAudio(samples: samples, sampleRate: engine.sampleRate, text: text,
                                                synthesisTime: ContinuousClock.now - start))
                } catch {
                    return .failure(error)
                }
            })
        }
    }
}
