// What the page-table view draws, as a list of shapes: the model the Qt
// tests check exactly, free of widgets.
//
// One process's page table left to right: a column of CPU boxes, the PGD
// page, its PMD pages, and the PTE pages, each PTE page a fill bar of its
// 512 entries (PtePageInfo::entries_set; the snapshot counts entries, it
// does not say which, so a bar and not a grid). The locks are outlined in
// the shared lock colours (held green, held and wanted yellow, waiters as a
// count): under "single" one outline, mm->page_table_lock, goes round all
// the tables; under "split" every PTE page has its own outline (its
// pte_lock) and mm->page_table_lock goes round the PGD and PMD pages only,
// which is all it guards there. Faults in flight are arrows from their CPU
// to the PTE page (vpn / 512) at the entry's position (vpn % 512), and on to
// the page they sleep on when they wait for a page lock, each routed round
// the tables in the gaps between them (lines, then the arrow's head) so
// that none crosses a PGD, PMD or PTE page.
//
// Level of detail: when there are more PTE pages than boxes fit, runs of
// consecutive PTE pages share one box (its bar shows their entries over
// their capacity, its outline the busiest of their locks).
#pragma once

#include "base/page.h"
#include "mm/page_table.h"

#include "kit/displaylist.h"

#include <QColor>
#include <QFontMetricsF>
#include <QPalette>
#include <QRectF>
#include <QString>

#include <cstdint>
#include <vector>

namespace pcl::ui {

class PageTableLayout {
public:
    using ItemKind = DisplayKind;
    /// Roles: "cpu", "pgd", "pmd", "pte", "pte-fill", "pte-lock",
    /// "mm-lock", "waiters", "fault" and "page-wait" (the arrows' last
    /// legs), "fault-route" and "page-wait-route" (the lines before them),
    /// "waited-page", "legend" ...; index: for "pte*" the box, for "cpu",
    /// "fault*" and "page-wait*" the CPU.
    using Item = DisplayItem;

    /// A fault in flight: its CPU, the virtual page and, while it sleeps on
    /// a page lock, that page.
    struct Fault {
        int cpu = 0;
        std::uint64_t vpn = 0;
        bool waitsOnPage = false;
        FileId file = 0;
        pgoff_t index = 0;
    };

    /// A box standing for PTE pages [firstPte, firstPte + count) of the snapshot.
    struct PteBox {
        QRectF rect;
        std::size_t firstPte = 0;
        std::size_t count = 0;
        std::uint64_t firstVpn = 0;
        std::uint64_t lastVpn = 0; ///< last vpn covered (inclusive)
        std::uint64_t entries = 0; ///< entries set over the run
        sync::LockState lock;      ///< the busiest lock of the run
    };

    struct Input {
        PageTableSnapshot snapshot;
        int cpus = 0;
        std::vector<Fault> faults;
        std::vector<std::uint64_t> grew; ///< first_vpn of PTE pages whose entries grew since the last tick
    };

    static constexpr double kMinBoxWidth = 64;
    static constexpr double kBoxHeight = 34;
    static constexpr double kTallBoxHeight = 46;

    void layout(const Input& in, const QSizeF& size, const QPalette& palette);

    const std::vector<Item>& items() const { return items_; }
    const std::vector<PteBox>& boxes() const { return boxes_; }
    /// PTE pages per box (1 unless aggregated).
    std::size_t group() const { return group_; }
    /// The box holding @vpn, -1 if none.
    int boxOf(std::uint64_t vpn) const;
    /// The box under @p, -1 if none; the CPU box under @p, -1 if none.
    int boxAt(const QPointF& p) const;
    int cpuAt(const QPointF& p) const;
    QRectF cpuRect(int cpu) const;

    /// What the items cover, text as wide as @fm writes it (not its box):
    /// what Fit brings to the whole view.
    QRectF contentRect(const QFontMetricsF& fm) const;

    /// Outline colour and width of a lock in @state (free: a quiet line).
    static QColor lockColor(const sync::LockState& state, const QPalette& palette);
    static QColor fillColor();
    static QColor faultColor();
    static QColor pageWaitColor();

private:
    std::vector<Item> items_;
    std::vector<PteBox> boxes_;
    std::vector<QRectF> cpus_;
    std::size_t group_ = 1;
};

} // namespace pcl::ui
