#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file written whole did not reach its name; the file that had the name (if any) is as it was.
public struct PartialFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}

/// Writes a file whole or not at all: into a hidden partial file beside the destination
/// (`.NAME.partial-PID`), flushed to the disk, then moved onto the name. A failure at any step (a full disk, a
/// size limit) removes the partial file and leaves the destination, or the file already there, untouched.
public enum PartialFile {
    /// The hidden name `destination` is written under until it is complete.
    public static func partialPath(for destination: String) -> String {
        let slash = destination.lastIndex(of: "/")
        let folder = slash.map { String(destination[...$0]) } ?? ""
        let name = slash.map { String(destination[destination.index(after: $0)...]) } ?? destination
        return "\(folder).\(name).partial-\(getpid())"
    }

    /// Calls `write` with the partial file's path, then puts the file in place: renamed over an existing file
    /// with `replacing`, else linked to the name, which fails when the name exists (even if it appeared meanwhile).
    /// Errors thrown by `write` are rethrown as they are.
    public static func write<Failure: Error>(to destination: String, replacing: Bool,
                                             _ write: (String) throws(Failure) -> Void) throws -> Void {
        let partial = partialPath(for: destination)
        defer { unlink(partial) }
        try write(partial)
        // A library may report success with the data still in the page cache: a full disk then shows here.
        let fd = partial.withCString { sysOpen($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw PartialFileError(path: destination, reason: "not written: \(describe(errno))") }
        let synced = fsync(fd) == 0 ? nil : errno
        close(fd)
        if let synced { throw PartialFileError(path: destination, reason: "not written: \(describe(synced))") }
        if replacing {
            guard rename(partial, destination) == 0 else {
                throw PartialFileError(path: destination, reason: "not written: \(describe(errno))")
            }
        } else if link(partial, destination) != 0 {
            let reason = errno == EEXIST ? "a file of that name exists and was left as it is" : describe(errno)
            throw PartialFileError(path: destination, reason: "not written: \(reason)")
        }
    }

    private static func describe(_ code: Int32) -> String { RegularFile.describe(code) }
}
