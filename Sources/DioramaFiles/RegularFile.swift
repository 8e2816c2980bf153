#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a path cannot be read as a regular file.
public struct RegularFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        case missing
        case folder
        /// A named pipe, a device or a socket: reading one could block forever or never end.
        case notRegular
        /// Permission denied, or another reason the file cannot be opened.
        case unreadable
        /// Opened, but reading failed.
        case readFailed
    }

    public var kind: Kind
    /// What is wrong, to follow the file's name: "is a named pipe (FIFO), not a regular file".
    public var reason: String
    public var hint: String?
    /// The errno behind the problem, 0 when there is none.
    public var code: Int32

    public var description: String { reason }
}

/// Opens files for reading only when they are regular files, never blocking on the way: a named pipe
/// without a writer blocks `open` forever, and a device can block a read or never end. Every file the project
/// reads goes through here, including those whose path is then handed to a C library.
///
/// ```swift
/// switch RegularFile.read("/shows/scenes.json", upTo: 16 << 20) {
/// case .success(let bytes): ...
/// case .failure(let problem): print("scenes.json \(problem.reason)")
/// }
/// ```
public enum RegularFile {
    /// A descriptor open for reading `path` (in blocking mode, closed on exec), or why it cannot be.
    /// The caller closes the descriptor.
    public static func open(_ path: String) -> Result<Int32, RegularFileError> {
        // O_NONBLOCK makes opening a pipe without a writer return at once; fstat then tells what was opened.
        let fd = path.withCString { sysOpen($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY) }
        guard fd >= 0 else {
            let code = errno
            // A socket cannot be opened at all (ENXIO): say what it is rather than that it is missing.
            if code == ENXIO || code == EOPNOTSUPP, let kind = kindOfNode(at: path) {
                return .failure(notRegular(kind))
            }
            switch code {
            case ENOENT, ENOTDIR:
                return .failure(RegularFileError(kind: .missing, reason: "does not exist", code: code))
            case EACCES, EPERM:
                return .failure(RegularFileError(kind: .unreadable, reason: "cannot be read (permission denied)",
                                                 hint: "check its permissions", code: code))
            default:
                return .failure(RegularFileError(kind: .unreadable, reason: "cannot be opened (\(describe(code)))", code: code))
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .failure(RegularFileError(kind: .unreadable, reason: "cannot be opened (\(describe(code)))", code: code))
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            close(fd)
            if type == S_IFDIR { return .failure(RegularFileError(kind: .folder, reason: "is a folder, not a file", code: EISDIR)) }
            return .failure(notRegular(type))
        }
        // Reads from a regular file never block for long; clear O_NONBLOCK so the libraries that read see a plain file.
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
        return .success(fd)
    }

    /// Nil when `path` is a regular file that can be opened for reading; else why not. For paths about to be
    /// handed to a C library that opens them itself.
    public static func problem(_ path: String) -> RegularFileError? {
        switch open(path) {
        case .success(let fd):
            close(fd)
            return nil
        case .failure(let problem):
            return problem
        }
    }

    /// The first `limit + 1` bytes at most of the regular file at `path` (one past the limit, so a caller can tell
    /// a file over its limit without reading it all).
    public static func read(_ path: String, upTo limit: Int) -> Result<[UInt8], RegularFileError> {
        let fd: Int32
        switch open(path) {
        case .success(let opened): fd = opened
        case .failure(let problem): return .failure(problem)
        }
        defer { close(fd) }
        return read(descriptor: fd, upTo: limit)
    }

    /// Reads up to `limit + 1` bytes from an open descriptor, from where it is.
    public static func read(descriptor fd: Int32, upTo limit: Int) -> Result<[UInt8], RegularFileError> {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = chunk.withUnsafeMutableBytes { sysRead(fd, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                return .failure(RegularFileError(kind: .readFailed, reason: "cannot be read (\(describe(code)))", code: code))
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return .success(bytes)
    }

    /// The file type of what is at `path` without opening it, nil when nothing is.
    private static func kindOfNode(at path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    private static func notRegular(_ type: mode_t) -> RegularFileError {
        let what: String
        switch type {
        case S_IFIFO: what = "a named pipe (FIFO)"
        case S_IFCHR: what = "a character device"
        case S_IFBLK: what = "a block device"
        case S_IFSOCK: what = "a socket"
        default: what = "not a file"
        }
        return RegularFileError(kind: .notRegular, reason: "is \(what), not a regular file",
                                hint: "name a regular file: a pipe or a device could stop diorama waiting for data forever",
                                code: EINVAL)
    }

    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

// The C functions under other names, where `RegularFile`'s own `open` and `read` would hide them (`PartialFile` opens
// through this one too).
func sysOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}

private func sysRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(fd, buffer, count)
    #else
    Darwin.read(fd, buffer, count)
    #endif
}
