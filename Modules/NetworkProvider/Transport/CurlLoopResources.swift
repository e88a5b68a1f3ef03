import CCurl
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension CurlMultiLoop {
    /// What a loop needs from the system before its thread starts, created all together or not
    /// at all.
    struct Resources {
        let epoll: Int32
        let wakeup: Int32
        let timer: Int32
        let multi: UnsafeMutableRawPointer

        /// Creates the descriptors first and curl's multi handle last: each of the three
        /// descriptors fails alone with `EMFILE`, while `curl_multi_init` gets by without its
        /// own socket pair when none is left and fails only for memory.
        ///
        /// On a failure, closes what it created before, so a process that runs out of
        /// descriptors is not left with fewer still.
        static func create() throws(TransportSetupFailure) -> Resources {
            var opened: [Int32] = []
            func closeOpened() {
                // errno is read before this, which may change it.
                for descriptor in opened.reversed() { close(descriptor) }
            }
            func descriptor(
                _ resource: TransportSetupFailure.Resource, _ create: () -> Int32
            ) throws(TransportSetupFailure) -> Int32 {
                let descriptor = create()
                guard descriptor >= 0 else {
                    let failure = TransportSetupFailure.lastError(creating: resource)
                    closeOpened()
                    throw failure
                }
                opened.append(descriptor)
                return descriptor
            }

            let epoll = try descriptor(.epoll) { epoll_create1(Int32(EPOLL_CLOEXEC)) }
            let wakeup = try descriptor(.eventfd) { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) }
            let timer = try descriptor(.timerfd) {
                timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
            }
            for own in [wakeup, timer] {
                var event = epoll_event()
                event.events = EPOLLIN.rawValue
                event.data.fd = own
                guard epoll_ctl(epoll, EPOLL_CTL_ADD, own, &event) == 0 else {
                    let failure = TransportSetupFailure.lastError(creating: .epollWatch)
                    closeOpened()
                    throw failure
                }
            }
            guard let multi = curl_multi_init() else {
                closeOpened()
                throw TransportSetupFailure(resource: .curlMultiHandle, code: nil)
            }
            return Resources(epoll: epoll, wakeup: wakeup, timer: timer, multi: multi)
        }
    }
}
