#include "probe/readahead_probe.h"

#include "mm/readahead_factory.h"
#include "probe/host_windows.h"
#include "probe/read_pattern.h"
#include "probe/readahead_replay.h"
#include "probe/residency_probe.h"

#include "lib/arg_parser.h"
#include "lib/file_io.h"
#include "lib/report.h"
#include "lib/text.h"

#include <algorithm>
#include <chrono>
#include <memory>
#include <ostream>

namespace pcl {

namespace {

ArgParser make_parser()
{
    ArgParser p("probe readahead");
    p.add_string("file", "", "F", "probe this existing file (read only, not modified) instead of a scratch file");
    p.add_uint("size", 64ull << 20, 4096, 1ull << 36, "BYTES",
        "size of the scratch file, created in $TMPDIR (or /tmp) and deleted at the end");
    p.add_string("pattern", "seq", "P", "order of the one-page reads: seq, random, backward, stride:N or streams:N");
    p.add_string("access", "read", "A",
        "read: pread(2) each page; mmap: load a byte of each page through a shared mapping (read faults)");
    p.add_uint("reads", 1024, 1, 1ull << 24, "N", "one-page accesses (fewer if the pattern reaches the end)");
    p.add_uint("seed", 1, 0, ~0ull, "S", "seed of the random pattern");
    p.add_uint("settle-us", 500, 1, 1000000, "US",
        "after a read (and once the device has no read in flight), wait until the residency is unchanged for this "
        "long");
    p.add_output("csv", "FILE", "also write the windows as the simulator's readahead CSV to FILE, atomically");
    p.add_flag("compare",
        "also replay the accesses in the simulator under each readahead policy, the host's read_ahead_kb as "
        "its maximum window, and print each one's pages read and windows beside the host's");
    p.describe("[options]",
        "Measures the running Linux kernel's readahead: evicts the file (posix_fadvise DONTNEED),\n"
        "reads it one page at a time and, after each read, asks mincore(2) which pages arrived.\n"
        "Prints the windows in the simulator's readahead terms (start, size, async_size, sync or async).",
        "exit codes: 0 measured, 1 cannot measure (not Linux, no permission, posix_fadvise failed,\n"
        "the advice did not evict the file, e.g. on tmpfs) or failed, 2 bad command line");
    return p;
}

#if defined(__linux__)

/// Windows, sync and async counts and the first sizes, for the comparison.
struct WindowSummary {
    std::uint64_t windows = 0, sync = 0, async = 0;
    std::string sizes; ///< the first few, then "..."
};

WindowSummary summarize(const std::vector<HostWindow>& windows)
{
    WindowSummary s;
    s.windows = windows.size();
    for (std::size_t i = 0; i < windows.size(); ++i) {
        (windows[i].async ? s.async : s.sync) += 1;
        if (i < 8)
            s.sizes += (i ? " " : "") + std::to_string(windows[i].size);
        else if (i == 8)
            s.sizes += " ...";
    }
    if (s.sizes.empty())
        s.sizes = "-";
    return s;
}

/// What the reads of a probe found.
struct Measurement {
    std::vector<HostWindow> windows; ///< async_size estimated
    PageSet resident;                ///< the file's pages in the page cache after the last read
    std::uint64_t misses = 0;        ///< reads of a page not cached
    std::uint64_t demand_only = 0;   ///< misses that read no window around their page
};

/// Reads (or, @mmap, loads) each of @positions in turn from an evicted
/// file, and infers the windows each one opened from the residency.
Measurement measure_windows(
    ResidencyProbe& probe, const std::vector<std::uint64_t>& positions, bool mmap, std::uint64_t settle)
{
    Measurement m;
    const auto t0 = std::chrono::steady_clock::now();
    PageSet before = probe.resident();
    for (std::uint64_t i = 0; i < positions.size(); ++i) {
        const std::uint64_t page = positions[i];
        const auto t = std::uint64_t(
            std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count());
        PageSet after = mmap ? probe.touch_page(page, settle) : probe.read_page(page, settle);
        auto ws = windows_of_read(i, page, before, after);
        const bool hit = std::binary_search(before.begin(), before.end(), page);
        if (!hit) {
            ++m.misses;
            if (std::none_of(ws.begin(), ws.end(),
                    [&](const HostWindow& w) { return page >= w.start && page < w.start + w.size; }))
                ++m.demand_only;
        }
        for (HostWindow& w : ws) {
            w.time_us = t;
            m.windows.push_back(w);
        }
        before = std::move(after);
    }
    estimate_async_sizes(m.windows);
    m.resident = std::move(before);
    return m;
}

/// The table of windows and the summary line under it.
void print_windows(std::ostream& out, const Measurement& m, std::uint64_t reads, std::uint64_t pages)
{
    const std::vector<HostWindow>& windows = m.windows;
    Report table({ "read", "page", "start", "size", "async_size", "kind" });
    std::uint64_t total = 0, max_size = 0, ahead = 0, async_count = 0;
    for (const HostWindow& w : windows) {
        table.add_row();
        table.set("read", w.read_index);
        table.set("page", w.page);
        table.set("start", w.start);
        table.set("size", w.size);
        table.set("async_size", w.async_size);
        table.set("kind", std::string(w.async ? "async" : "sync"));
        total += w.size;
        max_size = std::max(max_size, w.size);
        // The page the read asked for is not "ahead".
        ahead += w.size - ((!w.async && w.page >= w.start && w.page < w.start + w.size) ? 1 : 0);
        async_count += w.async;
    }
    if (!windows.empty())
        table.print(out);
    else
        out << "no readahead window: every miss read only its own page\n";
    out << "\nsummary: " << counted(reads, "read") << ", " << m.misses << " missed (" << m.demand_only
        << (m.demand_only == 1 ? " read only its page); " : " read only their page); ")
        << counted(windows.size(), "window") << " (" << windows.size() - async_count << " sync, " << async_count
        << " async), size mean " << fixed(windows.empty() ? 0.0 : double(total) / double(windows.size()), 1) << " max "
        << counted(max_size, "page") << "; " << counted(ahead, "page") << " read ahead; " << m.resident.size() << " of "
        << counted(pages, "page") << " resident at the end\n"
        << "async_size: inferred from the read that started the next window (0: no read hit the marker);"
        << " mincore shows residency, not the PG_readahead flag\n";
}

/// `--compare`: the host's row beside the same accesses replayed under each
/// of the simulator's readahead policies, with the host's read_ahead_kb as
/// their largest window.
void print_comparison(std::ostream& out, const Measurement& m, const ProbedFile& file, const std::string& release,
    const std::vector<std::uint64_t>& positions, bool mmap)
{
    const std::uint64_t ps = ResidencyProbe::page_size();
    // The host's maximum window, in pages: read_ahead_kb of the device.
    const std::string kb = file.read_ahead_kb();
    std::uint64_t ra_pages = 32;
    if (kb != "unknown")
        ra_pages = std::max<std::uint64_t>(1, std::stoull(kb) * 1024 / ps);
    Report cmp({ "readahead", "pages read", "misses", "windows", "sync", "async", "first sizes" });
    auto add = [&](const std::string& who, std::uint64_t read, std::uint64_t missed, const WindowSummary& s) {
        cmp.add_row();
        cmp.set("readahead", who);
        cmp.set("pages read", read);
        cmp.set("misses", missed);
        cmp.set("windows", s.windows);
        cmp.set("sync", s.sync);
        cmp.set("async", s.async);
        cmp.set("first sizes", s.sizes);
    };
    add("host (Linux " + release + ")", m.resident.size(), m.misses, summarize(m.windows));
    for (std::string_view policy : readahead_policy_names()) {
        const ReplayResult r = replay_readahead(policy, file.pages(), ra_pages, positions, mmap);
        add(std::string(policy), r.pages_read, r.misses, summarize(r.windows));
    }
    out << "\nthe same " << counted(positions.size(), mmap ? "load" : "read")
        << " in the simulator (instant disk, memory for the whole file, at most " << counted(ra_pages, "page")
        << " a window):\n";
    cmp.print(out);
    out << "pages read: the host's are the pages resident at the end (nothing else read the file)\n";
}

int measure(const ArgParser& p, const ReadPattern& pattern, bool mmap, std::ostream& out)
{
    std::unique_ptr<ScratchFile> scratch;
    std::string path = p.get_string("file");
    if (path.empty()) {
        scratch = std::make_unique<ScratchFile>(p.get_uint("size"));
        path = scratch->path();
    }
    const ProbedFile file(path);
    const std::uint64_t pages = file.pages();
    const std::string release = kernel_release();

    ResidencyProbe probe(file.fd(), pages);
    probe.evict();

    const std::vector<std::uint64_t> positions = pattern_pages(pattern, pages, p.get_uint("reads"), p.get_uint("seed"));
    out << "probe readahead: Linux " << release << ", " << path << (scratch ? " (scratch)" : "") << " on "
        << file.fs_type() << ", read_ahead_kb " << file.read_ahead_kb() << '\n'
        << "settle: "
        << (probe.inflight_path().empty() ? "" : "no read in flight (" + probe.inflight_path() + "), then ")
        << "residency unchanged for " << p.get_uint("settle-us") << " us\n"
        << counted(pages, "page") << " of " << ResidencyProbe::page_size() << " bytes, pattern "
        << pattern_name(pattern) << ", " << counted(positions.size(), mmap ? "one-page load" : "one-page read")
        << (mmap ? " through a shared mapping" : "");
    if (positions.size() < p.get_uint("reads"))
        out << " (the pattern reaches the end of the file after " << positions.size() << ")";
    out << "\n\n";

    const Measurement m = measure_windows(probe, positions, mmap, p.get_uint("settle-us"));
    print_windows(out, m, positions.size(), pages);
    if (const std::string& csv = p.get_string("csv"); !csv.empty()) {
        write_file_atomically(csv, host_windows_csv(m.windows));
        out << "\nwindows written to " << csv << '\n';
    }
    if (p.get_flag("compare"))
        print_comparison(out, m, file, release, positions, mmap);
    return 0;
}

#endif

} // namespace

std::string probe_readahead_usage()
{
    return make_parser().usage();
}

int run_probe_readahead(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser p = make_parser();
    ReadPattern pattern;
    bool mmap = false;
    if (const auto code = p.parse_command(args, out, err, [&](const ArgParser& q) {
            pattern = parse_pattern(q.get_string("pattern"));
            const std::string access = q.get_string("access");
            if (access != "read" && access != "mmap")
                throw ArgError("--access: expected read or mmap, got '" + access + "'");
            mmap = access == "mmap";
        }))
        return *code;
#if defined(__linux__)
    try {
        return measure(p, pattern, mmap, out);
    } catch (const ProbeError& e) {
        err << kProgram << " probe readahead: " << e.what() << '\n';
        return 1;
    } catch (const std::exception& e) {
        err << kProgram << " probe readahead: " << e.what() << '\n';
        return 1;
    }
#else
    (void)pattern;
    (void)mmap;
    (void)out;
    err << kProgram << " probe readahead: cannot measure: not Linux: the probe needs Linux's "
        << "posix_fadvise(POSIX_FADV_DONTNEED) and mincore(2)\n";
    return 1;
#endif
}

} // namespace pcl
