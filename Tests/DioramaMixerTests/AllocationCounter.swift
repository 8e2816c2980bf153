import Glibc
import Synchronization

/// The signature of the runtime's `swift_allocObject`.
private typealias AllocateObject = @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

/// The runtime's own allocator, while the counting hook is installed.
private let runtimeAllocator = Atomic<UInt>(0)
/// The thread whose allocations are counted.
private let countedThread = Atomic<UInt>(0)
private let allocations = Atomic<Int>(0)

private let countingAllocator: AllocateObject = { metadata, size, alignmentMask in
    if countedThread.load(ordering: .relaxed) == UInt(pthread_self()) { allocations.add(1, ordering: .relaxed) }
    let forward = unsafeBitCast(runtimeAllocator.load(ordering: .relaxed), to: AllocateObject.self)
    return forward(metadata, size, alignmentMask)
}

/// The number of Swift heap objects (arrays, closures, boxes, class instances) the calling thread
/// allocates while running `body`, or nil if the runtime offers no allocation hook.
///
/// It goes through the hook the Swift runtime keeps for Instruments (`_swift_allocObject`, switched
/// on by `_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly`); the hook
/// forwards every call to the runtime's allocator. Switching it on also reroutes retains and releases, which
/// threads running meanwhile can crash in (seen: a retain in another test's thread), so use it only in a test
/// process running nothing else (see `renderDoesNotAllocate`).
func heapAllocations(in body: () -> Void) -> Int? {
    guard let hookSymbol = dlsym(nil, "_swift_allocObject"),
          let switchSymbol = dlsym(nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { return nil }
    let hook = hookSymbol.assumingMemoryBound(to: UInt.self)
    // A one-byte std::atomic<bool>; byte stores are atomic on every platform Swift runs on.
    let enabled = switchSymbol.assumingMemoryBound(to: UInt8.self)
    let wasEnabled = enabled.pointee
    let original = hook.pointee
    runtimeAllocator.store(original, ordering: .sequentiallyConsistent)
    allocations.store(0, ordering: .sequentiallyConsistent)
    countedThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
    hook.pointee = unsafeBitCast(countingAllocator, to: UInt.self)
    enabled.pointee = 1
    body()
    countedThread.store(0, ordering: .sequentiallyConsistent)
    enabled.pointee = wasEnabled
    hook.pointee = original
    return allocations.load(ordering: .sequentiallyConsistent)
}
