// The hash view: 2.4's page hash table live, as a column of buckets shaded
// by chain length with its lock layout over it, the chain-length histogram
// and chi-square beside it, and one chain expanded to its pages.
//
// The table is one for all files, so any file's index snapshot shows it
// (the first file's is taken). Each tick, while visible, it takes a
// snapshot (chain lengths, histogram, chi-square, lock states: one relaxed
// read per bucket, no lock); inserts and erases flash their bucket from the
// IndexChainLength events (object = bucket), fading over kFlashMs.
//
// Wheel: zoom around the cursor's bucket; drag: pan; double-click or Fit:
// every bucket. A click expands the bucket under the cursor (in an
// aggregated row, the one with the longest chain): its pages are read with
// HashChains::chain_entries, under that bucket's lock like any lookup.
#pragma once

#include "events/event.h"
#include "kit/sceneview.h"
#include "views/hash/hashlayout.h"

#include <memory>
#include <optional>
#include <unordered_map>

namespace pcl::ui {

class HashView : public SceneView<HashLayout> {
    Q_OBJECT
public:
    /// How long an insert's flash lasts.
    static constexpr int kFlashMs = 300;

    explicit HashView(LiveRun& run, QWidget* parent = nullptr);
    ~HashView() override;

    const HashLayout& hashLayout() const { return layout_; }

    /// Takes a snapshot now (what a tick does while visible).
    void refresh() override;
    /// Expands @bucket's chain and outlines its row (nullopt: none); a
    /// bucket outside the zoomed view is brought into it.
    void selectBucket(std::optional<std::uint64_t> bucket);
    /// The bucket expanded and outlined, if any.
    std::optional<std::uint64_t> selectedBucket() const { return layout_.selected(); }
    /// Flashes @bucket as an insert would.
    void flashBucket(std::uint64_t bucket);
    /// Buckets flashing now, with their opacity in (0, 1].
    std::vector<std::pair<std::uint64_t, double>> flashes() const;

    /// Fills the view, without a run, with a real page hash of @pages pages
    /// (2.4 sizing: about one bucket per page, 64 hashed locks).
    void benchmarkLoad(std::uint64_t pages);

    /// Buckets down the column.
    Viewport viewport() const override;
    QString toolTipAt(const QPoint& pos) const override;

protected:
    void setViewport(const Viewport& v) override;
    void paintScene(QPainter& p) override;
    void clickAt(QMouseEvent* e) override;

private:
    void onRunReset() override;
    void onTicked() override;
    void onEvents(const std::vector<Event>& events) override;
    /// The table of the current run, or of the benchmark; nothing if none.
    std::optional<HashChains> table() const;
    void readChain();
    QString message() const;

    std::unordered_map<std::uint64_t, qint64> flashes_; ///< bucket -> clock_ ms of its last change
    std::uint32_t selectedLength_ = 0;                  ///< chain length when the chain was last read
};

} // namespace pcl::ui
