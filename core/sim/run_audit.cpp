#include "sim/run_audit.h"

#include "sim/engine.h"

#include <algorithm>
#include <string>
#include <tuple>
#include <unordered_set>

namespace pcl {

namespace {

std::string page_name(const Page& p, const FrameAllocator& frames)
{
    return "page " + std::to_string(p.index) + " of file " + std::to_string(p.mapping) + " (frame "
        + std::to_string(frames.page_to_pfn(&p)) + ")";
}

class Audit {
public:
    Audit(Engine& engine, std::size_t limit)
        : engine_(engine)
        , cache_(engine.page_cache())
        , frames_(engine.frames())
        , limit_(limit)
    {
    }

    std::vector<std::string> run()
    {
        // Every frame is free, on an LRU list, or pinned (a mapped
        // anonymous page): none is left isolated or half freed, once the
        // disks have completed what they were given.
        if (const std::uint64_t n = frames_.in_transit(); n && io_done())
            problem(std::to_string(n) + " frames are in transit after the run: isolated or being freed, and nobody "
                + "is left to put them back");
        lru_lists();
        indexes();
        mappings();
        return std::move(problems_);
    }

private:
    void problem(std::string what)
    {
        if (problems_.size() < limit_)
            problems_.push_back(std::move(what));
    }

    /// The page of @file at @offset in its index (no reference kept).
    Page* in_index(FileId file, pgoff_t offset)
    {
        Page* p = cache_.find_get_page(file, offset);
        if (p)
            cache_.put_page(p);
        return p;
    }

    void lru_lists()
    {
        std::unordered_set<const Page*> seen;
        for (const LruList list : { LruList::Inactive, LruList::Active }) {
            const char* name = list == LruList::Active ? "active" : "inactive";
            const std::vector<Page*> pages = cache_.lru_pages(list);
            const std::uint64_t counted = list == LruList::Active ? cache_.nr_active() : cache_.nr_inactive();
            if (pages.size() != counted)
                problem("the " + std::string(name) + " LRU list holds " + std::to_string(pages.size())
                    + " pages, its count says " + std::to_string(counted));
            for (Page* p : pages) {
                if (!frames_.owns(p)) {
                    problem("the " + std::string(name) + " LRU list links a page that is no frame of the machine");
                    continue;
                }
                if (!seen.insert(p).second)
                    problem(page_name(*p, frames_) + " is on the LRU lists twice");
                if (!p->test(PG_lru))
                    problem(page_name(*p, frames_) + " is on the " + name + " LRU list without PG_lru");
                if (p->test(PG_active) != (list == LruList::Active))
                    problem(page_name(*p, frames_) + " is on the " + name + " LRU list with PG_active "
                        + (p->test(PG_active) ? "set" : "clear"));
                if (in_index(p->mapping, p->index) != p)
                    problem(page_name(*p, frames_) + " is on the " + name + " LRU list but not in its file's index");
            }
        }
    }

    void indexes()
    {
        const std::vector<pgoff_t> sizes = Engine::file_sizes(engine_.config());
        const PageTable& table = engine_.page_table();
        // At rest no I/O holds a page: its references are exactly the
        // cache's, the audit's own and its mapping's, if a PTE maps it.
        const bool at_rest = io_done() && cache_.nr_writeback() == 0;
        std::uint64_t dirty = 0;
        std::uint64_t cached = 0;
        for (std::size_t f = 0; f < engine_.files().size() && f < sizes.size(); ++f) {
            const FileId file = engine_.files()[f];
            AddressSpace& as = cache_.file(file);
            const std::uint64_t base = engine_.file_base_vpn(file);
            std::uint64_t file_dirty = 0;
            // The oracle the index's other views are held to: the pages
            // one lookup at each offset of the file finds.
            std::vector<Page*> found;
            for (pgoff_t off = 0; off < sizes[f]; ++off) {
                Page* p = cache_.find_get_page(file, off);
                if (!p)
                    continue;
                found.push_back(p);
                // The index's tags say what the page's flags do (both change
                // under the index's lock: set_page_dirty, test_set_page_writeback).
                if (p->test(PG_dirty) != as.index->test_tag(off, kTagDirty))
                    problem(page_name(*p, frames_) + (p->test(PG_dirty) ? " is dirty" : " is clean")
                        + " but its index's dirty tag says otherwise");
                if (p->test(PG_writeback) != as.index->test_tag(off, kTagWriteback))
                    problem(page_name(*p, frames_) + (p->test(PG_writeback) ? " is" : " is not")
                        + " under writeback but its index's writeback tag says otherwise");
                file_dirty += p->test(PG_dirty);
                if (p->mapping != file || p->index != off)
                    problem("file " + std::to_string(file) + "'s index holds at offset " + std::to_string(off) + " "
                        + page_name(*p, frames_));
                // Ours and the cache's, at least; at rest, with its
                // mapping's, exactly: a reference taken and never dropped
                // would keep the frame for ever, one dropped twice would
                // free it while cached.
                const std::int32_t refs = p->count.load(std::memory_order_relaxed);
                const std::int32_t expected = 2 + (table.read_pte(base + off) == p ? 1 : 0);
                if (refs < 2)
                    problem(page_name(*p, frames_) + " is in its file's index without the cache's reference");
                else if (at_rest && refs != expected)
                    problem(page_name(*p, frames_) + " holds " + std::to_string(refs - 1)
                        + " references after the run, the cache's" + (expected == 3 ? " and its PTE's" : "") + " make "
                        + std::to_string(expected - 1) + ": a reference was "
                        + (refs > expected ? "taken and never dropped" : "dropped twice"));
                if (!p->test(PG_lru))
                    problem(page_name(*p, frames_) + " is in its file's index but on no LRU list");
                // A page under I/O is locked until the device completes
                // it; a run stopped at its duration may leave I/O behind.
                if (p->test(PG_locked) && io_done())
                    problem(page_name(*p, frames_) + " is still locked after the run: nobody is left to unlock it");
                cache_.put_page(p);
            }
            index_views(file, *as.index, found);
            cached += found.size();
            if (as.nr_dirty.load() != file_dirty)
                problem("file " + std::to_string(file) + " counts " + std::to_string(as.nr_dirty.load())
                    + " dirty pages, its index holds " + std::to_string(file_dirty));
            dirty += file_dirty;
        }
        // Every cached page is on exactly one LRU list (each list's pages
        // were checked to be in the index, once, with PG_lru): as many on
        // the lists as in the indexes, none left with PG_lru and no list.
        if (cache_.nrpages() != cached)
            problem("the cache counts " + std::to_string(cache_.nrpages()) + " pages, its files' indexes hold "
                + std::to_string(cached));
        if (const std::uint64_t listed = cache_.nr_active() + cache_.nr_inactive(); listed != cached)
            problem(std::to_string(listed) + " pages are on the LRU lists, the files' indexes hold "
                + std::to_string(cached));
        // Every page dirtied was written, or truncated, or is dirty still:
        // none was freed unwritten. Once no write is in flight.
        const PageCacheStats s = cache_.stats();
        if (s.nr_dirty != dirty)
            problem("the cache counts " + std::to_string(s.nr_dirty) + " dirty pages, the indexes hold "
                + std::to_string(dirty));
        if (s.nr_writeback == 0 && s.dirtied != s.written + s.cancelled_dirty + s.nr_dirty)
            problem(std::to_string(s.dirtied) + " pages were dirtied but " + std::to_string(s.written) + " written, "
                + std::to_string(s.cancelled_dirty) + " truncated dirty and " + std::to_string(s.nr_dirty)
                + " dirty now: a dirty page was lost unwritten");
        std::uint64_t device_written = engine_.device().pages_written();
        if (const BlockDevice* second = engine_.second_device())
            device_written += second->pages_written();
        if (s.nr_writeback == 0 && io_done() && device_written != s.written)
            problem("the disks wrote " + std::to_string(device_written) + " pages, the cache counts "
                + std::to_string(s.written) + " written");
    }

    /// The index's count, its walk in order (gang lookup) and its tagged
    /// walks against @found, the pages a lookup at each offset of @file
    /// found: the same pages, at the same offsets, the tagged ones those
    /// whose flags say so, and nothing past the file's end.
    void index_views(FileId file, PageIndex& index, const std::vector<Page*>& found)
    {
        const std::string name = "file " + std::to_string(file) + "'s index";
        if (index.count() != found.size())
            problem(name + " counts " + std::to_string(index.count()) + " pages, a lookup at each offset finds "
                + std::to_string(found.size()));
        const auto walk = [&](const std::string& what, const std::vector<Page*>& expected, auto&& gang) {
            std::vector<Page*> walked(found.size() + 1);
            walked.resize(gang(walked.data(), walked.size()));
            if (walked == expected)
                return;
            std::string first;
            for (std::size_t i = 0; i < std::max(walked.size(), expected.size()) && first.empty(); ++i)
                if (i >= walked.size() || i >= expected.size() || walked[i] != expected[i])
                    first = i < walked.size() ? ", first " + page_name(*walked[i], frames_)
                                              : ", first missing " + page_name(*expected[i], frames_);
            problem(name + "'s " + what + " walk gives " + std::to_string(walked.size()) + " pages, its lookups "
                + std::to_string(expected.size()) + first);
        };
        walk("gang lookup", found, [&](Page** out, std::size_t max) { return index.gang_lookup(0, max, out); });
        for (const auto& [tag, flag, what] :
            { std::tuple { kTagDirty, PG_dirty, "dirty" }, std::tuple { kTagWriteback, PG_writeback, "writeback" } }) {
            std::vector<Page*> flagged;
            for (Page* p : found)
                if (p->test(flag))
                    flagged.push_back(p);
            walk(std::string(what) + "-tagged", flagged,
                [&, tag = tag](Page** out, std::size_t max) { return index.gang_lookup_tag(0, max, tag, out); });
            // radix_tree_tagged: the root's tag, what writeback asks first.
            if (index.tagged(tag) != !flagged.empty())
                problem(name + " says " + (flagged.empty() ? "a page carries" : "no page carries") + " its " + what
                    + " tag, but "
                    + (flagged.empty()
                            ? std::string("no page is ")
                            : std::to_string(flagged.size()) + (flagged.size() == 1 ? " page is " : " pages are "))
                    + what);
        }
    }

    /// Every disk has completed what it was given.
    bool io_done()
    {
        const BlockDevice* second = engine_.second_device();
        return engine_.device().outstanding() == 0 && (!second || second->outstanding() == 0);
    }

    void mappings()
    {
        const std::vector<pgoff_t> sizes = Engine::file_sizes(engine_.config());
        const PageTable& table = engine_.page_table();
        std::uint64_t file_ptes = 0;
        for (std::size_t f = 0; f < engine_.files().size() && f < sizes.size(); ++f) {
            const FileId file = engine_.files()[f];
            const std::uint64_t base = engine_.file_base_vpn(file);
            for (pgoff_t off = 0; off < sizes[f]; ++off) {
                const Page* p = table.read_pte(base + off);
                if (!p)
                    continue;
                ++file_ptes;
                if (p->mapping != file || p->index != off)
                    problem("the PTE of file " + std::to_string(file) + "'s offset " + std::to_string(off) + " maps "
                        + page_name(*p, frames_));
                else if (in_index(file, off) != p)
                    problem("a PTE maps " + page_name(*p, frames_) + ", which has left its file's index");
            }
        }
        // Every frame in use is cached or an anonymous page a PTE maps:
        // none was leaked, none is both free and mapped (a freed frame
        // still mapped would be counted free).
        const std::uint64_t anonymous = table.mapped_count() - file_ptes;
        if (io_done() && cache_.nr_writeback() == 0 && frames_.in_transit() == 0
            && frames_.in_use() != cache_.nrpages() + anonymous)
            problem(std::to_string(frames_.in_use()) + " frames are in use after the run, but "
                + std::to_string(cache_.nrpages()) + " pages are cached and " + std::to_string(anonymous)
                + " anonymous ones mapped: a frame was leaked, or freed while still mapped");
    }

    Engine& engine_;
    PageCache& cache_;
    FrameAllocator& frames_;
    std::size_t limit_;
    std::vector<std::string> problems_;
};

} // namespace

std::vector<std::string> audit_page_cache(Engine& engine, std::size_t limit)
{
    return Audit(engine, limit).run();
}

} // namespace pcl
