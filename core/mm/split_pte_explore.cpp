// The explored torn PTE read: see split_pte_explore.h.
#include "mm/split_pte_explore.h"

#include "base/machine.h"
#include "mm/split_pte_steps.h"
#include "sched/scheduler.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace pcl {

namespace {

/// The writer's updates, as the free-running race cycles them: AB (the
/// initial entry) -> CD -> AE -> AB ...
constexpr pteval_t kExploreCycle[] = { kPteCD, kPteAE, kPteAB };

/// A schedule's bound: far more points than a read and thirty updates make
/// (a spinner's rounds included), so that a schedule that never ends says so.
constexpr std::uint64_t kMaxPoints = 1'000'000;

/// Where another task may run instead: one point of the exploring
/// strategy. Every memory operation of both sides comes after one, so that
/// any order of them is a schedule some seed makes.
void scheduling_point() noexcept
{
    pcl::detail::machine_charge(1);
}

/// The reader's observer: a scheduling point before each of its operations,
/// and the record of each when one is kept.
class ExploreObserver {
public:
    ExploreObserver(const SplitPte& pte, PteStepRecorder* steps)
        : pte_(pte)
        , steps_(steps)
    {
    }

    void before(PteOp op)
    {
        scheduling_point();
        if (!steps_)
            return;
        // What the reader will find and wait out (lock() and read_begin()
        // spin through the scheduler, letting the writer finish).
        if ((op == PteOp::Lock && pte_.lock_held()) || (op == PteOp::SeqRead && (pte_.sequence() & 1)))
            steps_->reader_waits(op);
    }

    void after(PteOp op, const PteReaderRegs& regs, PteVerdict verdict)
    {
        if (steps_)
            steps_->reader(op, regs, verdict);
    }

private:
    const SplitPte& pte_;
    PteStepRecorder* steps_;
};

struct ScheduleOutcome {
    PteRead read;
    std::uint64_t points = 0;
    std::uint32_t writes = 0;
};

sched::SchedulerOptions explore_options(sched::ScheduleStrategy strategy, unsigned depth, std::uint64_t pct_steps)
{
    sched::SchedulerOptions options;
    options.strategy = strategy;
    options.pct_depth = depth;
    options.pct_steps = std::max<std::uint64_t>(pct_steps, 1);
    options.max_points = kMaxPoints;
    // A read, a few updates and, when recording, the words of each step:
    // a small stack each.
    options.stack_bytes = 64 * 1024;
    return options;
}

/// One schedule on @machine, whose seed says which: the reader's one read
/// against the writer's updates.
ScheduleOutcome run_one_schedule(sched::Scheduler& machine, const PteExploreConfig& config, PteScript* record)
{
    SplitPte pte(config.method, kPteAB);
    std::optional<PteStepRecorder> steps;
    if (record)
        steps.emplace(pte, *record);
    ScheduleOutcome out;
    machine.run([&] {
        Machine& m = *current_machine();
        const TaskRef reader = m.spawn("reader", [&] {
            ExploreObserver obs(pte, steps ? &*steps : nullptr);
            out.read = pte.read(obs);
        });
        const TaskRef writer = m.spawn("writer", [&] {
            for (unsigned u = 0; u < config.updates; ++u) {
                const pteval_t value = kExploreCycle[u % 3];
                for (const PteOp op : pte.write_ops()) {
                    scheduling_point();
                    if (steps && op == PteOp::Lock && pte.lock_held())
                        steps->writer_waits(value);
                    pte.write_step(op, value); // lock() spins through the scheduler while the reader holds it
                    if (steps)
                        steps->writer(op, value);
                }
                ++out.writes;
            }
        });
        m.join(reader);
        m.join(writer);
    });
    out.points = machine.scheduling_points();
    return out;
}

bool is_written(const std::vector<pteval_t>& written, pteval_t v)
{
    return std::find(written.begin(), written.end(), v) != written.end();
}

/// pct's k: the points of a first run, at the first seed, without change
/// points (as pagecache-lab-cli explore measures it for a scenario).
std::uint64_t measure_pct_steps(const PteExploreConfig& c)
{
    if (c.strategy != sched::ScheduleStrategy::Pct)
        return 0;
    sched::Scheduler machine(explore_options(sched::ScheduleStrategy::Pct, 1, 1));
    machine.set_seed(c.seed);
    return std::max<std::uint64_t>(1, run_one_schedule(machine, c, nullptr).points);
}

} // namespace

void check_pte_explore_config(const PteExploreConfig& c)
{
    if (c.strategy == sched::ScheduleStrategy::VirtualTime)
        throw std::invalid_argument("strategy: virtual_time runs the machine's one order, not a new schedule for "
                                    "each seed; explore with random or pct");
    if (c.depth < 1 || c.depth > 8)
        throw std::invalid_argument("depth: must be in [1, 8], got " + std::to_string(c.depth));
    if (c.schedules < 1 || c.schedules > 10'000'000)
        throw std::invalid_argument("schedules: must be in [1, 10000000], got " + std::to_string(c.schedules));
    if (c.updates < 1 || c.updates > 30)
        throw std::invalid_argument("updates: must be in [1, 30], got " + std::to_string(c.updates));
}

std::vector<pteval_t> pte_explore_memory(PteReadMethod method, unsigned updates)
{
    // The writer's own steps on an entry of its own, each value once.
    SplitPte pte(method, kPteAB);
    std::vector<pteval_t> held { pte.memory() };
    for (unsigned u = 0; u < updates; ++u)
        for (const PteOp op : pte.write_ops()) {
            pte.write_step(op, kExploreCycle[u % 3]);
            if (!is_written(held, pte.memory()))
                held.push_back(pte.memory());
        }
    return held;
}

PteScript run_pte_schedule(const PteExploreConfig& config, std::uint64_t seed, std::uint64_t pct_steps)
{
    check_pte_explore_config(config);
    if (config.strategy == sched::ScheduleStrategy::Pct && pct_steps == 0)
        pct_steps = measure_pct_steps(config);
    PteScript script;
    script.method = config.method;
    script.interleaving = "explored";
    script.written = pte_explore_memory(config.method, config.updates);
    sched::Scheduler machine(explore_options(config.strategy, config.depth, pct_steps));
    machine.set_seed(seed);
    const ScheduleOutcome o = run_one_schedule(machine, config, &script);
    script.result = o.read.value;
    script.retries = o.read.retries;
    script.writes = o.writes;
    script.torn = !is_written(script.written, o.read.value);
    return script;
}

PteExploreResult explore_pte_schedules(const PteExploreConfig& config, const std::atomic<bool>* stop)
{
    check_pte_explore_config(config);
    PteExploreResult out;
    out.pct_steps = measure_pct_steps(config);
    const std::vector<pteval_t> written = pte_explore_memory(config.method, config.updates);
    sched::Scheduler machine(explore_options(config.strategy, config.depth, out.pct_steps));
    for (std::uint64_t n = 0; n < config.schedules; ++n) {
        if (stop && stop->load(std::memory_order_relaxed)) {
            out.stopped = true;
            break;
        }
        const std::uint64_t seed = config.seed + n;
        machine.set_seed(seed);
        const ScheduleOutcome o = run_one_schedule(machine, config, nullptr);
        ++out.schedules;
        out.points += o.points;
        out.retries += o.read.retries;
        if (!is_written(written, o.read.value)) {
            out.found = seed;
            out.schedule = run_pte_schedule(config, seed, out.pct_steps);
            break;
        }
    }
    return out;
}

} // namespace pcl
