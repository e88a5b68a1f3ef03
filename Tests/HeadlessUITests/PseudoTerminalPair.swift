#if canImport(Glibc)
    import Glibc
#endif

/// A fresh pseudo-terminal: the controlling side, and the terminal side a program is given.
struct PseudoTerminalPair {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let master: Int32
    let slave: Int32

    /// Opens one, `columns` by `rows` cells of `cellPixels` (0 by 0: the pixels unknown, as many
    /// terminals report); both descriptors belong to the caller.
    static func open(
        columns: UInt16 = 80, rows: UInt16 = 24, cellPixels: (width: UInt16, height: UInt16) = (0, 0)
    ) throws -> PseudoTerminalPair {
        // posix_openpt and friends are not in Swift's Glibc module; these are what they do.
        let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else {
            throw Failure(description: "no /dev/ptmx: \(String(cString: strerror(errno)))")
        }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        // _IOW('T', 0x31, int) and _IOR('T', 0x30, unsigned int) on Linux, which Swift does not
        // import because they are function-like macros.
        let unlockPseudoTerminal: UInt = 0x4004_5431
        let pseudoTerminalNumber: UInt = 0x8004_5430
        guard ioctl(master, unlockPseudoTerminal, &unlock) == 0,
            ioctl(master, pseudoTerminalNumber, &number) == 0
        else {
            close(master)
            throw Failure(
                description: "cannot unlock the pseudo-terminal: \(String(cString: strerror(errno)))")
        }
        var size = winsize(
            ws_row: rows, ws_col: columns, ws_xpixel: columns * cellPixels.width,
            ws_ypixel: rows * cellPixels.height)
        let slave = Glibc.open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0, ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            close(master)
            if slave >= 0 { close(slave) }
            throw Failure(description: "cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
        }
        return PseudoTerminalPair(master: master, slave: slave)
    }
}

/// Makes a child spawned with `attributes` start as from a shell: with no signal blocked and
/// every signal at its default action (the spawning thread may have a dispatch worker's mask,
/// and a child that blocks SIGHUP or SIGTSTP would neither hang up nor suspend), plus `flags`.
func startAsFromAShell(_ attributes: inout posix_spawnattr_t, flags: Int32 = 0) {
    var none = sigset_t()
    var all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(
        &attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | flags))
}
