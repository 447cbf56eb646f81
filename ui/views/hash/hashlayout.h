// HashLayout: what the hash view draws for one snapshot of the page hash
// table (2.4's page_hash_table, one table for the pages of every file).
//
// Glossary:
//   @bucket   one chain head of the table; its load is its chain length
//   @cell     one drawn row of the bucket column: one bucket when they fit
//             (chain length written inside), else a run of buckets per pixel
//             row, shaded by the LONGEST chain in the run (a mean would hide
//             one long chain among empty buckets, and long chains are what
//             a bad hash produces)
//   @band     a lock's range of buckets in the strip left of the column:
//             "global" is one band around everything (2.4's pagecache_lock),
//             "hashed" one band per hash_lock over buckets_per_lock
//             contiguous buckets, "bucket" one per bucket (only held ones are
//             in the snapshot)
//   @view     the visible buckets [first, first + count): zoom and pan
//
// The layout is Qt-widget free: it turns (snapshot, view, size, palette)
// into rectangles, colours and labels, which the widget paints and the tests
// check. Lock colours are Tracy's (colors.h): held green, held and wanted
// yellow, with the number of waiters written beside.
#pragma once

#include "index/hash_chains.h"
#include "kit/scenelayout.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace pcl::ui {

class HashLayout : public SceneLayout {
public:
    /// Rows shorter than this are not given one bucket each: the column
    /// aggregates instead.
    static constexpr double kMinBucketRowPx = 14;
    /// Tallest row of one bucket (a table of 8 buckets is not drawn 60 px a row).
    static constexpr double kMaxBucketRowPx = 24;
    /// Fewest buckets a zoom shows.
    static constexpr std::uint64_t kMinViewBuckets = 8;

    /// One row of the bucket column.
    struct Cell {
        QRectF rect;
        std::uint64_t first = 0;         ///< first bucket of the row
        std::uint64_t end = 0;           ///< one past its last bucket
        std::uint32_t longest = 0;       ///< longest chain among them (what the shade shows)
        std::uint64_t longestBucket = 0; ///< which bucket has it (the first such)
        double mean = 0;                 ///< mean chain length of the row
        QColor fill;
    };
    /// A lock's buckets in the strip beside the column (several locks per
    /// pixel row merge into one band showing the most contended of them).
    struct Band {
        QRectF rect;
        std::uint64_t firstLock = 0; ///< position in snapshot.locks of its first lock
        std::uint64_t locks = 1;     ///< locks merged into the band
        std::uint64_t first = 0;     ///< first bucket covered
        std::uint64_t end = 0;       ///< one past the last
        sync::LockState state;       ///< the most contended of its locks
        QColor fill;
    };
    /// One histogram bar: buckets whose chain length is in [length, lengthEnd).
    struct Bar {
        QRectF rect;
        std::uint32_t length = 0;
        std::uint32_t lengthEnd = 1;
        std::uint64_t buckets = 0;
        QColor fill;
    };
    /// One page of the expanded chain.
    struct ChainBox {
        QRectF rect;
        HashChainEntry entry;
        QString text; ///< "file 0 · page 123"
    };
    /// What to draw, in painting order: background areas, cells, bands,
    /// bars, outlines, chain, swatches, labels.
    struct Scene : Overlay {
        QRectF column;    ///< the bucket column's frame
        QRectF strip;     ///< the lock strip's frame
        QRectF histogram; ///< the histogram's plot area
        QRectF chain;     ///< the expanded chain's panel (empty if none)
        std::uint64_t bucketsPerCell = 1;
        std::uint32_t scaleMax = 1; ///< chain length drawn at full heat
        std::vector<Cell> cells;
        std::vector<Band> bands;
        std::vector<Bar> bars;
        std::vector<ChainBox> chainBoxes;
    };

    void setSnapshot(IndexSnapshot snapshot);
    /// Pages in the whole table (the snapshot counts one file's only); 0: unknown.
    void setTablePages(std::uint64_t pages) { tablePages_ = pages; }
    /// The pages the header counts: the whole table's, else the snapshot's file's.
    std::uint64_t tablePages() const { return tablePages_ ? tablePages_ : snap_.count; }
    /// Files sharing the table, for the title.
    void setFiles(int files) { files_ = files; }

    /// Buckets shown in the snapshot (chain_lengths.size()).
    std::uint64_t buckets() const { return snap_.chain_lengths.size(); }
    /// Shows buckets [first, first + count), clamped to the table.
    void setView(double first, double count);
    double viewCount() const { return viewCountOf(double(buckets())); }

    /// The expanded bucket and its chain (entries from HashChains::chain_entries).
    void setSelected(std::optional<std::uint64_t> bucket, std::vector<HashChainEntry> chain = {});
    std::optional<std::uint64_t> selected() const { return selected_; }

    /// Builds the scene for the current snapshot, view and size.
    Scene build() const;

    /// The cell of @scene at @pos, or nullptr.
    static const Cell* cellAt(const Scene& scene, const QPointF& pos);
    static const Bar* barAt(const Scene& scene, const QPointF& pos);
    static const Band* bandAt(const Scene& scene, const QPointF& pos);
    static const ChainBox* chainBoxAt(const Scene& scene, const QPointF& pos);
    /// The row of @scene's column drawing @bucket, if in view.
    static std::optional<QRectF> rowOf(const Scene& scene, std::uint64_t bucket);

    /// The colour of a lock in @state (Tracy's; @free for a lock nobody holds).
    /// "more even than random", "uniform", "slightly clustered", "clustered"
    /// or "badly clustered": what chi-square per degree of freedom says,
    /// given @degrees of them ("uniform" while it is within three standard
    /// deviations of 1).
    static QString chiSquareVerdict(double perDegree, std::uint64_t degrees);
    /// The lock covering @bucket: its position in snapshot.locks, -1 if none listed.
    int lockOf(std::uint64_t bucket) const;
    /// The bucket a "hash_bucket_lock[b]" lock guards, -1 for other names.
    static std::int64_t bucketOfLockName(const std::string& name);

private:
    void buildColumn(Scene& s) const;
    void buildLocks(Scene& s) const;
    void buildHistogram(Scene& s) const;
    void buildChain(Scene& s) const;

    std::uint64_t tablePages_ = 0;
    int files_ = 1;
    std::optional<std::uint64_t> selected_;
    std::vector<HashChainEntry> chain_;
    std::uint32_t longest_ = 0; ///< longest chain in the snapshot
};

} // namespace pcl::ui
