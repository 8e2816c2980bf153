import Foundation
import Synchronization

/// Runs the built `diorama` executable, for end-to-end tests of the command line.
public struct CommandResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    /// The signal that ended the command (SIGILL for a trap), nil when it exited.
    public var signal: Int32? = nil
    /// True when the command outran its timeout and was killed.
    public var timedOut = false
}

/// Where a command's standard output or standard error goes besides a pipe the runner reads.
public enum CommandStream: Sendable {
    case pipe
    /// A file opened for writing, such as /dev/full (every write fails with ENOSPC).
    case file(String)
}

public enum DioramaCommand {
    /// The repository's root (the folder holding Package.swift), found from this source file's location.
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The `diorama` binary SwiftPM built beside the test bundle (`swift build --build-tests` builds both).
    public static var executable: URL {
        let bundleDirectory = Bundle.main.bundleURL
        for directory in [bundleDirectory, bundleDirectory.deletingLastPathComponent()] {
            let candidate = directory.appendingPathComponent("diorama")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return bundleDirectory.appendingPathComponent("diorama")
    }

    /// Runs `diorama ARGUMENTS` in `directory` (the repository's root by default) with `environment` added,
    /// and waits for it to exit.
    /// - Parameters:
    ///   - timeout: seconds after which the command is killed (SIGKILL) and the result says `timedOut`; a
    ///     command that would hang fails its test instead of stalling the suite.
    ///   - fileSizeLimit: bytes any file the command writes may grow to (RLIMIT_FSIZE, with SIGXFSZ ignored, so a
    ///     write past it fails with EFBIG as a write to a full disk fails).
    public static func run(_ arguments: [String], in directory: URL? = nil,
                           environment: [String: String] = [:], timeout: Double? = nil,
                           standardOutput: CommandStream = .pipe, standardError: CommandStream = .pipe,
                           fileSizeLimit: Int? = nil) throws -> CommandResult {
        let process = Process()
        if let fileSizeLimit {
            // bash's ulimit -f counts KiB; an ignored signal stays ignored across exec.
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "trap '' XFSZ; ulimit -f \(max(fileSizeLimit / 1024, 0)); exec \"$0\" \"$@\"", executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        process.currentDirectoryURL = directory ?? repositoryRoot
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let output = Pipe(), error = Pipe()
        var opened: [FileHandle] = []
        defer { for handle in opened { try? handle.close() } }
        for (stream, pipe, assign) in [(standardOutput, output, { process.standardOutput = $0 }),
                                       (standardError, error, { process.standardError = $0 })] as [(CommandStream, Pipe, (Any) -> Void)] {
            switch stream {
            case .pipe: assign(pipe)
            case .file(let path):
                guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteUnknown) }
                opened.append(handle)
                assign(handle)
                try pipe.fileHandleForWriting.close()
            }
        }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = CommandWatchdog(pid: process.processIdentifier, timeout: timeout)
        // Read both pipes to the end before waiting, so a chatty child cannot fill a pipe and stall.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let timedOut = watchdog.finish()
        return CommandResult(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self),
            signal: process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil,
            timedOut: timedOut
        )
    }
}

/// Kills a process that has not finished within its timeout. Waits on a semaphore the runner signals when the
/// process ends, so nothing waits for time to pass once the process is done.
public final class CommandWatchdog: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let fired = Mutex(false)

    /// Starts watching `pid`; a nil timeout watches nothing.
    public init(pid: Int32, timeout: Double?) {
        guard let timeout else { return }
        Thread.detachNewThread { [self] in
            if done.wait(timeout: .now() + timeout) == .timedOut {
                fired.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
        }
    }

    /// Stops the watch; true when the process had to be killed.
    public func finish() -> Bool {
        done.signal()
        return fired.withLock { $0 }
    }
}
