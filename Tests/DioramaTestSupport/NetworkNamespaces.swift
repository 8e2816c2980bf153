import Foundation

/// Stand-in machines on one host: network namespaces joined by a private link (scripts/netns.sh), for tests of
/// players that find each other on the network (Ableton Link). Each namespace has loopback and eth0 = 10.77.0.N/24;
/// nothing reaches the host's network, and no other test's Link session can join.
public final class NetworkNamespaces: @unchecked Sendable {
    /// Why namespaces cannot be made here (not root, no `ip`, no veth), or nil when they can. Checked once.
    public static let unavailableReason: String? = {
        let result = try? runScript(["check"])
        guard let result else { return "scripts/netns.sh could not be run" }
        return result.status == 0 ? nil : result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }()

    public static var available: Bool { unavailableReason == nil }

    /// The namespaces' names, PREFIX-1 ... PREFIX-COUNT.
    public let names: [String]
    private let prefix: String
    // Guarded by `lock`: the commands started, terminated before the namespaces go.
    private var started: [Process] = []
    private let lock = NSLock()

    /// Makes `count` (2 or more) joined namespaces, runs `body` with them, then stops the commands still running in
    /// them and removes the namespaces, also when `body` throws.
    public static func with<Result>(count: Int, _ body: (NetworkNamespaces) throws -> Result) throws -> Result {
        let namespaces = try NetworkNamespaces(count: count)
        defer { namespaces.destroy() }
        return try body(namespaces)
    }

    private init(count: Int) throws {
        // Unique per process and call: tests run in parallel, and several suites may run at once on one host.
        prefix = "dio\(getpid())-\(UInt16.random(in: 0...UInt16.max))"
        let result = try Self.runScript(["create", prefix, String(count)])
        guard result.status == 0 else {
            throw NetworkNamespaceError(message: "scripts/netns.sh create failed: \(result.standardError)")
        }
        names = result.standardOutput.split(separator: "\n").map(String.init)
    }

    /// Starts `arguments` (an absolute executable path first) in namespace `index` (0-based) through `ip netns exec`.
    public func start(_ arguments: [String], in index: Int) throws -> RunningCommand {
        let command = try RunningCommand(["/usr/bin/env", "ip", "netns", "exec", names[index]] + arguments)
        lock.withLock { started.append(command.process) }
        return command
    }

    private func destroy() {
        // SIGKILL: a child started from a test thread may inherit a mask that blocks SIGTERM.
        for process in lock.withLock({ started }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        _ = try? Self.runScript(["destroy", prefix])
    }

    private static func runScript(_ arguments: [String]) throws -> CommandResult {
        let script = DioramaCommand.repositoryRoot.appendingPathComponent("scripts/netns.sh").path
        return try RunningCommand(["/usr/bin/env", "bash", script] + arguments).finish()
    }
}

public struct NetworkNamespaceError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// A child process whose output is collected by ``finish()``.
public final class RunningCommand: @unchecked Sendable {
    public let process = Process()
    private let output = Pipe(), error = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = output
        process.standardError = error
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the process to exit; its status and everything it wrote.
    public func finish() -> CommandResult {
        // Standard output to its end, then standard error, as DioramaCommand.run does: the commands run here write
        // a few lines to standard error at most, far below what would fill its pipe while the child still writes.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandResult(status: process.terminationStatus,
                             standardOutput: String(decoding: outputData, as: UTF8.self),
                             standardError: String(decoding: errorData, as: UTF8.self))
    }
}
