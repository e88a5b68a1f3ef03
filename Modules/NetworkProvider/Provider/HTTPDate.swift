import Foundation

/// Reads an HTTP date (RFC 9110 §5.6.7) in all three formats a recipient must accept:
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
/// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (a year that would be more than 50 years ahead
///   of `now` is the latest past year with the same last two digits)
/// - asctime: `Sun Nov  6 08:49:37 1994`
///
/// Written by hand rather than with `DateFormatter`: three fixed formats, no locale, and a
/// formatter per call would cost more than the rest of a retry decision.
enum HTTPDate {
    /// The date `text` names, or `nil` if it is in none of the three formats.
    static func parse(_ text: String, now: Date = Date()) -> Date? {
        let tokens = text.split { $0 == " " || $0 == "," || $0 == "-" || $0 == "\t" }.map(String.init)
        guard let first = tokens.first, dayNames.contains(first.lowercased()) else { return nil }
        let day: Int
        let month: Int
        var year: Int
        let time: String
        if tokens.count == 5, let asctimeMonth = monthNumber(tokens[1]) {
            // asctime: day-name month day time year
            guard let parsedDay = Int(tokens[2]), tokens[4].count == 4, let parsedYear = Int(tokens[4]) else {
                return nil
            }
            (day, month, year, time) = (parsedDay, asctimeMonth, parsedYear, tokens[3])
        } else if tokens.count == 6, tokens[5] == "GMT", let parsedDay = Int(tokens[1]),
            let parsedMonth = monthNumber(tokens[2]), let parsedYear = Int(tokens[3])
        {
            (day, month, year, time) = (parsedDay, parsedMonth, parsedYear, tokens[4])
            switch tokens[3].count {
            case 4: break
            case 2: year = fullYear(twoDigits: parsedYear, now: now)
            default: return nil
            }
        } else {
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2]), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = ((days * 24 + clock[0]) * 60 + clock[1]) * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static let dayNames: Set<String> = [
        "mon", "tue", "wed", "thu", "fri", "sat", "sun",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
    ]

    private static let monthNames = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]

    private static func monthNumber(_ name: String) -> Int? {
        monthNames.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    private static func fullYear(twoDigits: Int, now: Date) -> Int {
        let thisYear = 1970 + Int(now.timeIntervalSince1970 / 31_556_952)  // close enough to pick a century
        var year = thisYear - thisYear % 100 + twoDigits
        if year > thisYear + 50 { year -= 100 }
        return year
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
