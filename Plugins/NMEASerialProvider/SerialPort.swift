#if canImport(Glibc)
    import Glibc
#endif

/// Why a serial device could not be opened, with what to do about it.
struct SerialOpenError: Error, Equatable, CustomStringConvertible {
    /// The device path that was tried.
    var path: String
    /// The failing call (`open`, `tcgetattr`, …).
    var operation: String
    /// The `errno` it returned.
    var code: Int32

    var description: String {
        switch code {
        case ENOENT, ENODEV, ENXIO:
            return
                "serial device \(path) does not exist; check the path (ls /dev/serial/by-id/) and that the receiver is plugged in"
        case EACCES, EPERM:
            return "permission denied opening \(path); add the service's user to the dialout group "
                + "(sudo usermod -aG dialout <user>, then log in again or restart the service)"
        case EBUSY:
            return "serial device \(path) is busy; another program (gpsd, ModemManager, a terminal) has it open"
        case ENOTTY:
            return "\(path) is not a serial device (\(operation) failed); give the receiver's tty, e.g. /dev/ttyUSB0"
        default:
            return "cannot open serial device \(path): \(operation) failed: \(String(cString: strerror(code)))"
        }
    }
}

/// Opens a tty for raw, non-blocking NMEA reading.
enum SerialPort {
    /// Opens `path` with O_NOCTTY|O_NONBLOCK, raw mode (cfmakeraw), 8N1, receiver on, modem lines ignored, at `baud`.
    /// The caller owns the returned descriptor.
    static func open(path: String, baud: Int) throws(SerialOpenError) -> CInt {
        let descriptor = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SerialOpenError(path: path, operation: "open", code: errno) }
        do {
            try configure(descriptor, path: path, baud: baud)
            return descriptor
        } catch {
            close(descriptor)
            throw error
        }
    }

    private static func configure(_ descriptor: CInt, path: String, baud: Int) throws(SerialOpenError) {
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else {
            throw SerialOpenError(path: path, operation: "tcgetattr", code: errno)
        }
        cfmakeraw(&settings)
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        guard let speed = speed(for: baud) else {
            throw SerialOpenError(path: path, operation: "cfsetspeed(\(baud))", code: EINVAL)
        }
        guard cfsetispeed(&settings, speed) == 0, cfsetospeed(&settings, speed) == 0 else {
            throw SerialOpenError(path: path, operation: "cfsetspeed(\(baud))", code: errno)
        }
        guard tcsetattr(descriptor, TCSANOW, &settings) == 0 else {
            throw SerialOpenError(path: path, operation: "tcsetattr", code: errno)
        }
    }

    /// The termios constant for a standard rate.
    static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 4800: return speed_t(B4800)
        case 9600: return speed_t(B9600)
        case 19_200: return speed_t(B19200)
        case 38_400: return speed_t(B38400)
        case 57_600: return speed_t(B57600)
        case 115_200: return speed_t(B115200)
        case 230_400: return speed_t(B230400)
        case 460_800: return speed_t(B460800)
        case 921_600: return speed_t(B921600)
        default: return nil
        }
    }
}
