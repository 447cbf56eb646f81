// The Log view's lines: the notable events of a run, in words, newest last.
//
// Fed one batch per GUI tick (Simulation::eventsArrived, up to 20000
// records), so a tick's work is bounded: every record is classified (a
// switch, and for lock records a look-up in a table of one slot per CPU),
// but only records of the kinds shown are formatted, the newest of them, and
// never more than kMaxLinesPerBatch. Lines already made are never formatted again.
//
// The log keeps the last maxLines() lines of the shown kinds; older ones go
// (beginRemoveRows) as new ones come (one beginInsertRows per batch). The
// text filter selects among the kept lines, so clearing it brings back what
// it hid; the kind filter decides what is kept at all, so a kind switched on
// shows from its next event (its past records were never formatted), and a
// kind switched off disappears at once.
//
// A lock wait is reported once, when it ends: the LockAcquired that ends it
// carries the wait time, and the LockWaitBegin before it on the same CPU for
// the same lock names the holder. A CPU waits for one lock at a time, so one
// pending wait per CPU is all the pairing needs to remember.
#pragma once

#include "events/event.h"
#include "log/eventtext.h"

#include <QAbstractTableModel>
#include <QFont>
#include <QString>

#include <cstdint>
#include <deque>
#include <vector>

namespace pcl::ui {

class EventLogModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TimeColumn, CpuColumn, KindColumn, TextColumn, ColumnCount };
    enum Role {
        LineKindRole = Qt::UserRole + 1, ///< the row's LineKind, as int
        TimeNsRole,                      ///< the event's time since the first event of the run, ns (qint64)
    };
    /// Lines kept by default: a long scrollback that stays cheap to filter.
    static constexpr int kDefaultMaxLines = 10000;
    /// Lines made per batch at most: thirty ticks a second of these is more
    /// than anyone reads, and formatting more would eat the GUI thread's
    /// tick at benchmark speed. The rest of a batch is counted in skipped().
    static constexpr int kMaxLinesPerBatch = 2000;

    struct Line {
        std::int64_t timeNs = 0; ///< since the first event of the run
        LineKind kind = LineKind::LockWait;
        QString actor; ///< "CPU 2", "disk"
        QString text;  ///< the sentence
    };

    explicit EventLogModel(QObject* parent = nullptr);

    /// How records become sentences (lock names, the index's kind).
    void setEventText(EventText text) { text_ = std::move(text); }

    /// Lines kept at most (at least 1); trims at once if fewer than now.
    void setMaxLines(int lines);
    int maxLines() const { return maxLines_; }

    /// The kinds of line kept and shown (kNotableLineKinds at first).
    void setKinds(LineKindMask kinds);
    LineKindMask kinds() const { return kinds_; }
    /// Shows only kept lines whose sentence or CPU contains @text (case
    /// insensitive); "" shows all.
    void setTextFilter(const QString& text);
    QString textFilter() const { return filter_; }

    /// Takes one tick's records, in time order.
    void append(const std::vector<Event>& events);
    /// A new run: no lines, no pending waits, time counted from its first event.
    void clear();

    /// Lines kept, shown or not.
    int keptLines() const { return int(lines_.size()); }
    /// Records of a shown kind that were not formatted because a single
    /// batch had more of them than kMaxLinesPerBatch or the log keeps.
    std::uint64_t skipped() const { return skipped_; }
    /// The line shown at @row.
    const Line& line(int row) const;

    /// Rows as text for the clipboard or a file: time, CPU, kind and
    /// sentence separated by tabs, one line each.
    QString rowsAsText(const std::vector<int>& rows) const;
    /// Rows as CSV (RFC 4180) with a header: time_s,cpu,kind,text.
    QString rowsAsCsv(const std::vector<int>& rows) const;
    /// Every shown row, in order.
    std::vector<int> allRows() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Candidate {
        std::uint32_t event; ///< position in the batch
        std::int32_t holder; ///< lock holder for a wait, -1 unknown
        LineKind kind;
    };
    struct PendingWait {
        std::uint64_t lock = 0; ///< the lock's identity (Event::object)
        std::int32_t holder = -1;
        bool valid = false;
    };
    bool matches(const Line& line) const;
    /// Drops the oldest @n kept lines (and their rows).
    void dropOldest(std::size_t n);
    /// Rebuilds the shown rows from the kept lines (a filter changed).
    void refilter();

    EventText text_;
    int maxLines_ = kDefaultMaxLines;
    LineKindMask kinds_ = kNotableLineKinds;
    QString filter_;
    std::deque<Line> lines_;            ///< kept lines, oldest first
    std::uint64_t firstSeq_ = 0;        ///< sequence number of lines_.front()
    std::deque<std::uint64_t> shown_;   ///< sequence numbers of the shown lines, ascending
    std::vector<PendingWait> pending_;  ///< per CPU: the wait it began and has not ended
    std::vector<Candidate> candidates_; ///< scratch of append(), kept to avoid allocating per tick
    std::vector<Line> fresh_;           ///< scratch of append()
    bool haveOrigin_ = false;
    std::uint64_t originNs_ = 0; ///< time of the first event of the run
    std::uint64_t skipped_ = 0;
    QFont timeFont_;
};

} // namespace pcl::ui
