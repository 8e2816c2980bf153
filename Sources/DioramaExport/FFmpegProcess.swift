import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `ffmpeg` program run as a child process, fed through pipes it reads as `pipe:3`, `pipe:4`, ...
///
/// Its standard input is /dev/null (so it never waits for keys), its standard output is discarded and its
/// standard error is kept: the last lines are what a failure reports. It runs in a process group of its own, so a
/// Ctrl-C at a terminal reaches only us and we decide what becomes of it (it is killed and its file removed);
/// signals we ignore are reset to their defaults in it.
final class FFmpegProcess: Sendable {
    let pid: pid_t
    /// The write ends of the input pipes, in the order of `inputCount` (input k is `pipe:(3 + k)`).
    let inputs: [Int32]
    private let errorLines = LineTail()
    private let openInputs: Mutex<[Bool]>
    /// Signalled when standard error has reached its end (the child exited).
    private let errorFinished = DispatchSemaphore(value: 0)

    /// The Debian package that installs the program, for the message when it is missing.
    static let debianPackage = "ffmpeg"

    /// The program's path: the first executable `ffmpeg` in `PATH`, or nil.
    static func locate(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> String? {
        for folder in (path ?? "").split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = String(folder) + "/ffmpeg"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// Starts `program` with `arguments` and `inputCount` input pipes.
    init(program: String, arguments: [String], inputCount: Int) throws(VideoExportError) {
        // Writing into a pipe whose reader died must be an error we report, not a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        var readEnds: [Int32] = [], writeEnds: [Int32] = []
        func closeAll() { (readEnds + writeEnds).forEach { _ = close($0) } }
        for _ in 0..<inputCount {
            var fds: [Int32] = [0, 0]
            guard makePipe(&fds) else {
                closeAll()
                throw .system("cannot create a pipe for ffmpeg: \(String(cString: strerror(errno)))")
            }
            // Out of the way of the descriptors the child gets (3, 4, ...), so each dup2 really copies.
            let high = fcntl(fds[0], F_DUPFD_CLOEXEC, 64)
            close(fds[0])
            readEnds.append(high)
            writeEnds.append(fds[1])
            // A larger pipe lets a whole row band of a frame go through per wake-up.
            _ = fcntl(fds[1], 1031 /* F_SETPIPE_SZ */, 1 << 20)
        }
        var errorPipe: [Int32] = [0, 0]
        guard makePipe(&errorPipe) else {
            closeAll()
            throw .system("cannot create a pipe for ffmpeg: \(String(cString: strerror(errno)))")
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        for (index, fd) in readEnds.enumerated() { posix_spawn_file_actions_adddup2(&actions, fd, Int32(3 + index)) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE, SIGQUIT] { sigaddset(&defaults, number) }
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, program, &actions, &attributes, argv, environ)
        readEnds.forEach { _ = close($0) }
        close(errorPipe[1])
        guard status == 0 else {
            writeEnds.forEach { _ = close($0) }
            close(errorPipe[0])
            throw .ffmpegMissing("cannot start \(program): \(String(cString: strerror(status)))")
        }
        pid = child
        inputs = writeEnds
        openInputs = Mutex(writeEnds.map { _ in true })
        let lines = errorLines
        let errorFD = errorPipe[0]
        let finished = errorFinished
        Thread.detachNewThread {
            var pending = [UInt8]()
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(errorFD, $0.baseAddress, 4096) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending += chunk[0..<count]
                while let newline = pending.firstIndex(where: { $0 == 10 || $0 == 13 }) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                        lines.append(line)
                    }
                }
            }
            if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
            close(errorFD)
            finished.signal()
        }
    }

    /// Writes all of `bytes` into input `index`; throws when ffmpeg stopped reading (it exited).
    func write(_ bytes: UnsafeRawBufferPointer, toInput index: Int) throws(VideoExportError) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(inputs[index], bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw .ffmpegStoppedReading
            }
            offset += written
        }
    }

    /// Closes input `index`: ffmpeg sees its end. Closing twice does nothing.
    func finishInput(_ index: Int) {
        let open = openInputs.withLock { open in
            defer { open[index] = false }
            return open[index]
        }
        if open { close(inputs[index]) }
    }

    func closeInputs() {
        inputs.indices.forEach(finishInput)
    }

    /// Kills the child at once (its output is thrown away).
    func kill() {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// Waits for the child to exit. Returns its exit status, or 128 + the signal that ended it.
    func wait() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // Its last words are complete once the pipe has reached its end, which the exit brings.
        errorFinished.wait()
        errorFinished.signal()
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// ffmpeg's last lines on standard error, at most `count`.
    func lastErrorLines(_ count: Int = 6) -> [String] {
        errorLines.last(count)
    }
}

/// A pipe whose ends are closed in children (`pipe2` with `O_CLOEXEC` does not import): only the ends dup'ed onto
/// the child's descriptors reach ffmpeg.
private func makePipe(_ fds: inout [Int32]) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return true
}

/// The last few lines a child wrote to standard error.
private final class LineTail: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) {
        lines.withLock { lines in
            lines.append(line)
            if lines.count > 40 { lines.removeFirst(lines.count - 40) }
        }
    }

    func last(_ count: Int) -> [String] { lines.withLock { Array($0.suffix(count)) } }
}
