import ArgumentParser
import Foundation
import IntercomConfig
import IntercomPlatform

/// Loads the agent's configuration the way `run` does (main file, then conf.d), or says why not and exits:
/// 1 with every problem printed, 2 when a file cannot be read.
enum AgentConfigurationLoading {
    static func load(explicit path: String?, environment: [String: String], action: String) throws -> IntercomConfiguration {
        let loader = ConfigLoader(environment: environment)
        let mainPath = loader.mainPath(explicit: path)
        do {
            switch try loader.load(mainPath: mainPath) {
            case .valid(let valid, _):
                return valid
            case .invalid(let problems, _):
                for problem in problems { Terminal.error(problem.description) }
                Terminal.error("intercomd: \(problems.count) configuration problem(s) in \(mainPath); not \(action)")
                throw ExitCode(1)
            }
        } catch let error as ConfigUnreadableError {
            Terminal.error("intercomd: \(error); not \(action)")
            throw ExitCode(2)
        }
    }
}
