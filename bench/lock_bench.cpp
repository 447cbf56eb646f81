#include "lock_bench.h"

#include "bench_output.h"
#include "bench_progress.h"
#include "lib/arg_parser.h"
#include "lib/output_format.h"
#include "lib/report.h"
#include "lib/text.h"
#include "start_line.h"

#include "base/clock.h"
#include "base/cpu.h"
#include "sync/lock_stats.h"
#include "sync/mutex.h"
#include "sync/raw_locks.h"
#include "sync/rwlock.h"
#include "sync/seqcount.h"
#include "sync/seqlock.h"
#include "sync/spinlock.h"
#include "sync/ticket_lock.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <ctime>
#include <functional>
#include <iomanip>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace pcl::bench {

namespace {

constexpr unsigned kMaxLockThreads = 256;

/// SeqLock's algorithm (its SeqCount) over the bare spinlock: raw_locks.h
/// has no seqlock, and the instrumented SeqLock differs from this only in
/// its writers' lock (an instrumented SpinLock) and a counter bumped on read
/// retries.
class BareSeqLock {
public:
    void lock() noexcept
    {
        lock_.lock();
        seq_.write_begin();
    }
    void unlock() noexcept
    {
        seq_.write_end();
        lock_.unlock();
    }
    std::uint64_t read_begin() const noexcept { return seq_.read_begin(); }
    bool read_retry(std::uint64_t start) const noexcept { return seq_.read_retry(start); }

private:
    sync::RawSpinLock lock_;
    sync::SeqCount seq_;
};

/// The data a lock protects, on its own cache line. Atomic (relaxed, never
/// a read-modify-write) because seqlock readers read it during writes.
struct alignas(64) Protected {
    std::atomic<std::uint64_t> value { 0 };
    void bump() noexcept { value.store(value.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed); }
    std::uint64_t read() const noexcept { return value.load(std::memory_order_relaxed); }
};

std::atomic<std::uint64_t> g_sink { 0 };

struct Sample {
    double ns = 0;             ///< per lock+unlock, per thread
    bool ok = true;            ///< mutual exclusion held (exclusive sides)
    double contended_pct = -1; ///< from the lock class's statistics; -1: none
    double cpu_share = 0;      ///< CPU time the threads got / (threads x wall time)
};

/// Runs @body @iters times on each of @threads threads, each on its own
/// simulated CPU, all released at once. Sets @s.ns to wall time / iters (the
/// time one lock+unlock costs each thread) and @s.cpu_share: below 100% the
/// threads slept (a mutex) or the machine was busy and they took turns.
template <class Body> void run_threads(Sample& s, unsigned threads, std::uint64_t iters, const Body& body)
{
    std::vector<std::uint64_t> end_ns(threads, 0);
    std::vector<std::uint64_t> cpu_ns(threads, 0);
    auto worker = [&](unsigned k, StartLine& line) {
        std::uint64_t acc = 0;
        line.wait();
        const std::uint64_t cpu0 = thread_cpu_ns();
        for (std::uint64_t i = 0; i < iters; ++i)
            body(acc);
        end_ns[k] = now_ns();
        cpu_ns[k] = thread_cpu_ns() - cpu0;
        g_sink.fetch_add(acc, std::memory_order_relaxed);
    };
    const std::uint64_t start = StartLine::run(threads, worker, [](std::uint64_t) {});
    const std::uint64_t wall = std::max<std::uint64_t>(*std::max_element(end_ns.begin(), end_ns.end()) - start, 1);
    s.ns = double(wall) / double(iters);
    std::uint64_t cpu = 0;
    for (auto c : cpu_ns)
        cpu += c;
    s.cpu_share = double(cpu) / (double(threads) * double(wall));
}

template <class Lock> Sample exclusive(Lock& lock, unsigned threads, std::uint64_t iters)
{
    Protected data;
    Sample s;
    run_threads(s, threads, iters, [&](std::uint64_t&) {
        lock.lock();
        data.bump();
        lock.unlock();
    });
    s.ok = data.read() == std::uint64_t(threads) * iters;
    return s;
}

inline void read_locked(sync::RawRwLock& lock, const Protected& data, std::uint64_t& acc)
{
    lock.lock_shared();
    acc += data.read();
    lock.unlock_shared();
}
inline void read_locked(sync::RwLock& lock, const Protected& data, std::uint64_t& acc)
{
    const std::uint64_t start = lock.lock_shared();
    acc += data.read();
    lock.unlock_shared(start);
}

template <class Lock> Sample shared(Lock& lock, unsigned threads, std::uint64_t iters)
{
    Protected data;
    Sample s;
    run_threads(s, threads, iters, [&](std::uint64_t& acc) { read_locked(lock, data, acc); });
    return s;
}

template <class Lock> Sample seq_read(Lock& lock, unsigned threads, std::uint64_t iters)
{
    Protected data;
    Sample s;
    run_threads(s, threads, iters, [&](std::uint64_t& acc) {
        std::uint64_t seq;
        std::uint64_t v;
        do {
            seq = lock.read_begin();
            v = data.read();
        } while (lock.read_retry(seq));
        acc += v;
    });
    return s;
}

using Runner = std::function<Sample(unsigned threads, std::uint64_t iters, sync::LockRegistry& registry)>;

/// The variants in the order of the table.
constexpr const char* kVariants[] = { "bare", "instrumented", "instrumented_anon" };

struct Case {
    std::string lock; ///< "spin", "rwlock_read", ...
    Runner run[3];    ///< per kVariants entry
};

double contended_pct(const sync::LockClass& cls)
{
    const sync::LockStatRow row = cls.row();
    return row.acquisitions ? 100.0 * row.contention_ratio() : -1.0;
}

/// A case whose bare variant is @Raw and whose instrumented variants are
/// @Instr, named (its own statistics row and its class, as mapping.tree_lock)
/// and anonymous (its class only, as a radix node's lock).
template <class Raw, class Instr, class Measure> Case make_case(const std::string& name, Measure measure)
{
    Case c;
    c.lock = name;
    c.run[0] = [measure](unsigned t, std::uint64_t n, sync::LockRegistry&) {
        Raw lock;
        return measure(lock, t, n);
    };
    c.run[1] = [measure, name](unsigned t, std::uint64_t n, sync::LockRegistry& r) {
        Instr lock(r, "bench." + name, "bench." + name);
        Sample s = measure(lock, t, n);
        s.contended_pct = contended_pct(r.lock_class("bench." + name));
        return s;
    };
    c.run[2] = [measure, name](unsigned t, std::uint64_t n, sync::LockRegistry& r) {
        sync::LockClass& cls = r.lock_class("bench." + name + ".anon");
        Instr lock(cls);
        Sample s = measure(lock, t, n);
        s.contended_pct = contended_pct(cls);
        return s;
    };
    return c;
}

std::vector<Case> make_cases()
{
    const auto ex = [](auto& lock, unsigned t, std::uint64_t n) { return exclusive(lock, t, n); };
    const auto rd = [](auto& lock, unsigned t, std::uint64_t n) { return shared(lock, t, n); };
    const auto sr = [](auto& lock, unsigned t, std::uint64_t n) { return seq_read(lock, t, n); };
    std::vector<Case> cases;
    cases.push_back(make_case<sync::RawSpinLock, sync::SpinLock>("spin", ex));
    cases.push_back(make_case<sync::RawTicketLock, sync::TicketLock>("ticket", ex));
    cases.push_back(make_case<sync::RawMutex, sync::Mutex>("mutex", ex));
    cases.push_back(make_case<sync::RawRwLock, sync::RwLock>("rwlock_write", ex));
    cases.push_back(make_case<sync::RawRwLock, sync::RwLock>("rwlock_read", rd));
    cases.push_back(make_case<BareSeqLock, sync::SeqLock>("seqlock_write", ex));
    cases.push_back(make_case<BareSeqLock, sync::SeqLock>("seqlock_read", sr));
    return cases;
}

ArgParser lock_bench_parser()
{
    const unsigned hw = std::thread::hardware_concurrency();
    ArgParser p("bench locks");
    p.add_uint("threads", std::clamp(hw, 2u, kMaxLockThreads), 2, kMaxLockThreads, "T",
        "threads sharing one lock in the contended runs; max(2, hardware threads) unless given");
    p.add_uint("iters", std::uint64_t(1) << 20, 1000, std::uint64_t(1) << 30, "N", "lock+unlock pairs per thread");
    p.add_output("csv", "FILE", "also write the results as CSV to FILE");
    p.add_uint("repeats", 5, 1, 15, "R", "runs per cell; the median is reported");
    p.add_flag("quiet", "no progress lines on stderr");
    add_format_option(p, "locks", "that table");
    p.describe("[options]",
        "Times lock+unlock of each bare lock algorithm and of its instrumented type side by side,\n"
        "on 1 thread and with T threads on one lock, and prints the instrumentation's cost as a ratio.\n"
        "--csv writes lock,variant,threads,ns_per_op,ops_per_s,ratio_vs_bare,contended_pct.");
    return p;
}

} // namespace

std::string lock_bench_usage()
{
    return lock_bench_parser().usage();
}

int run_lock_bench(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    ArgParser parser = lock_bench_parser();
    if (const auto code = parser.parse_command(args, out, err, check_format_option))
        return *code;
    BenchOutput output(parser, out, err, "locks");
    std::ostream& notes = output.notes();
    const unsigned threads = static_cast<unsigned>(parser.get_uint("threads"));
    const std::uint64_t iters = parser.get_uint("iters");
    const unsigned repeats = static_cast<unsigned>(parser.get_uint("repeats"));
    const bool quiet = parser.get_flag("quiet");

    const std::vector<Case> cases = make_cases();
    const unsigned thread_counts[] = { 1, threads };
    sync::LockRegistry registry;
    // Calibrate the tick clock before anything is timed (it sleeps 20 ms).
    (void)ns_per_tick();

    using Key = std::tuple<std::string, std::string, unsigned>; // lock, variant, threads
    std::map<Key, std::vector<double>> ns;
    std::map<Key, std::vector<double>> pct;
    std::map<Key, std::vector<double>> cpu;
    std::vector<std::string> failures;
    const std::uint64_t started = now_ns();
    BenchProgress progress(err, repeats * cases.size(), true, quiet);
    for (unsigned r = 0; r < repeats; ++r) {
        for (const auto& c : cases) {
            progress.step("round " + std::to_string(r + 1) + '/' + std::to_string(repeats) + ' ' + c.lock);
            for (unsigned t : thread_counts) {
                // Variants side by side, their order rotated every round so
                // none always runs first (warm caches, turbo, a noisy neighbour).
                for (unsigned k = 0; k < 3; ++k) {
                    const unsigned v = (k + r) % 3;
                    registry.reset();
                    const Sample s = c.run[v](t, iters, registry);
                    const Key key(c.lock, kVariants[v], t);
                    ns[key].push_back(s.ns);
                    cpu[key].push_back(s.cpu_share);
                    if (s.contended_pct >= 0)
                        pct[key].push_back(s.contended_pct);
                    if (!s.ok)
                        failures.push_back(c.lock + " (" + kVariants[v] + ", " + std::to_string(t)
                            + " threads) let two holders in: the protected counter is wrong");
                }
            }
        }
    }

    progress.finish();
    Report table(
        { "lock", "threads", "bare ns", "instr ns", "instr/bare", "anon ns", "anon/bare", "contended %", "cpu %" });
    std::vector<std::string> warnings;
    Report csv({ "lock", "variant", "threads", "ns_per_op", "ops_per_s", "ratio_vs_bare", "contended_pct" });
    for (const auto& c : cases)
        for (unsigned t : thread_counts) {
            const double bare = median(ns[Key(c.lock, "bare", t)]);
            table.add_row();
            table.set("lock", c.lock);
            table.set("threads", std::uint64_t(t));
            double share = 1.0;
            for (const char* v : kVariants) {
                const Key key(c.lock, v, t);
                const double m = median(ns[key]);
                const double ratio = m / bare;
                const std::string p = pct[key].empty() ? std::string() : fixed(median(pct[key]), 1);
                share = std::min(share, median(cpu[key]));
                csv.add_row();
                csv.set("lock", c.lock);
                csv.set("variant", v);
                csv.set("threads", std::uint64_t(t));
                csv.set("ns_per_op", m, 2);
                // ns_per_op is per thread; throughput counts all threads.
                csv.set("ops_per_s", std::uint64_t(double(t) * 1e9 / m + 0.5));
                csv.set("ratio_vs_bare", ratio, 3);
                csv.set("contended_pct", p);
                if (std::string(v) == "bare") {
                    table.set("bare ns", m, 1);
                } else if (std::string(v) == "instrumented") {
                    table.set("instr ns", m, 1);
                    table.set("instr/bare", fixed(ratio, 2) + "x", ratio);
                    if (pct[key].empty())
                        table.set_missing("contended %");
                    else
                        table.set("contended %", median(pct[key]), 1);
                } else {
                    table.set("anon ns", m, 1);
                    table.set("anon/bare", fixed(ratio, 2) + "x", ratio);
                }
            }
            table.set("cpu %", 100 * share, 0);
            // Below 90% the threads partly took turns instead of running side
            // by side; a sleeping mutex waiter is expected to be below.
            if (t > 1 && share < 0.9 && c.lock != "mutex")
                warnings.push_back(c.lock + " with " + std::to_string(t) + " threads: the threads got only "
                    + fixed(100 * share, 0)
                    + "% of the CPU they asked for (a busy machine, or more threads than CPUs), so they partly took "
                      "turns and the row understates contention");
        }

    notes << "bench locks: " << iters << " lock+unlock pairs per thread, median of " << counted(repeats, "run")
          << "; 1 thread = uncontended, " << threads << " threads = all on one lock\n"
          << "ns per lock+unlock per thread; instr = named instrumented lock, anon = anonymous (class-only) lock;\n"
          << "contended % = acquisitions of the named lock that found it taken (its lockstat contentions);\n"
          << "cpu % = CPU time the threads got / what they asked for, lowest of the three variants\n\n";
    output.table("locks", table);
    notes << "\nnotes:\n"
          << "  the critical section stores one counter (checked afterwards); read sides read it\n"
          << "  rwlock_read and seqlock_read with " << threads << " threads: readers only, no writer\n"
          << "  the bare seqlock is SeqLock's algorithm over RawSpinLock (raw_locks.h has none)\n"
          << "  mutex waiters sleep, so its cpu % is below 100 by design\n"
          << "  spin, rwlock_write and seqlock_write are unfair spinlocks: a thread that releases the lock and\n"
          << "  takes it again at once still has its line while the other's read is on its way, so it re-takes\n"
          << "  the lock many times uncontended and their contended % stays low\n";
    for (const auto& w : warnings)
        notes << "  " << w << '\n';
    for (const auto& f : failures)
        notes << "  FAILED " << f << '\n';
    notes << "  total time " << fixed(double(now_ns() - started) / 1e9, 1) << " s\n";
    (void)g_sink.load(std::memory_order_relaxed);

    if (!output.write_csv(csv.csv(), "  "))
        return 1;
    output.finish();
    return failures.empty() ? 0 : 1;
}

} // namespace pcl::bench
