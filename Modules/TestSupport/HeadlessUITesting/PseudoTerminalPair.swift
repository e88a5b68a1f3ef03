#if canImport(Glibc)
    import Glibc
#endif

/// A fresh pseudo-terminal: the controlling side, and the terminal side a program is given.
///
/// Both descriptors close on exec, so that a child another test spawns meanwhile (a tmux server
/// lives long) does not keep the terminal side open; a program given it through
/// `posix_spawn_file_actions_adddup2` gets copies that stay open.
package struct PseudoTerminalPair: Sendable {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    package let master: Int32
    package let slave: Int32

    /// Opens one, `columns` by `rows` cells of `cellPixels` (0 by 0: the pixels unknown, as many
    /// terminals report); both descriptors belong to the caller.
    package static func open(
        columns: UInt16 = 80, rows: UInt16 = 24, cellPixels: (width: UInt16, height: UInt16) = (0, 0)
    ) throws -> PseudoTerminalPair {
        // posix_openpt and friends are not in Swift's Glibc module; these are what they do.
        let master = Glibc.open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
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
        let slave = Glibc.open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard slave >= 0, ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
            close(master)
            if slave >= 0 { close(slave) }
            throw Failure(description: "cannot open /dev/pts/\(number): \(String(cString: strerror(errno)))")
        }
        return PseudoTerminalPair(master: master, slave: slave)
    }
}
