#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value only reached under a pthread mutex: the shared caches of an `ImageSource`.
///
/// Why not `Synchronization.Mutex`: on Linux it waits on a futex in the Swift runtime's own
/// (uninstrumented) code, so ThreadSanitizer does not see one critical section end before the
/// next begins and reports a race between two `withLock` bodies. `pthread_mutex_lock` is
/// intercepted by ThreadSanitizer, so a report from this lock is a real one.
final class LockedState<State>: @unchecked Sendable {
    // The mutex needs a fixed address for its whole life, so it lives outside the object's
    // stored properties (which Swift may not keep at a stable address for `inout` access).
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Read and written only between `pthread_mutex_lock` and `pthread_mutex_unlock` below:
    // that is what makes the `@unchecked Sendable` true.
    private var state: State

    init(_ state: State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.state = state
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the state while holding the lock; not reentrant (a nested call from
    /// `body` on the same object would deadlock, as with `Mutex`).
    func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
