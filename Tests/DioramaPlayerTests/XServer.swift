import Foundation
import DioramaPlayer

/// An X server for the window tests: the one in DISPLAY when there is one (e.g. under `xvfb-run`),
/// else a private Xvfb this process starts once, which exits when this process disconnects or dies.
enum XServer {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    nonisolated(unsafe) private static var started: (pid: pid_t, display: String)?
    private static let lock = NSLock()

    /// Starts SDL's X11 video on `display()`, for the suites that test what a real X server shows.
    static func startVideo() throws {
        let display = try display()
        // Only when the tests started their own server (setenv is not safe while other threads read the environment).
        if ProcessInfo.processInfo.environment["DISPLAY"] != display { setenv("DISPLAY", display, 1) }
        try VideoSystem.start(driver: "x11")
    }

    /// The display to use, starting Xvfb when DISPLAY is not set. Throws (never skips) when neither works.
    static func display() throws -> String {
        lock.lock()
        defer { lock.unlock() }
        if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty { return display }
        if let started, kill(started.pid, 0) == 0 { return started.display }
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw Failure(description: "DISPLAY is not set and Xvfb is not installed (apt-get install xvfb), so the window cannot be tested")
        }
        // -displayfd: Xvfb picks a free display and writes its number once it accepts connections.
        // -terminate: it exits when its last client (this process) disconnects, also when this process dies.
        let arguments = [xvfb, "-displayfd", "1", "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-terminate"]
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw Failure(description: "cannot make a pipe for Xvfb") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The test runner blocks signals in its threads; the server must start with none blocked so it can be stopped.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = posix_spawn(&pid, xvfb, &actions, &attributes, argv, environ)
        close(pipe[1])
        guard status == 0 else {
            close(pipe[0])
            throw Failure(description: "cannot start Xvfb: \(String(cString: strerror(status)))")
        }
        let reader = FileHandle(fileDescriptor: pipe[0], closeOnDealloc: true)
        var number = Data()
        while let byte = try reader.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            number.append(byte)
        }
        guard let text = String(data: number, encoding: .utf8), Int(text) != nil else {
            kill(pid, SIGKILL)
            throw Failure(description: "Xvfb did not start (it reported no display number)")
        }
        started = (pid, ":" + text)
        return ":" + text
    }
}
