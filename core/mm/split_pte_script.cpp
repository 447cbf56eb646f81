// The scripted interleavings: see split_pte_script.h.
#include "mm/split_pte_script.h"

#include "mm/split_pte_steps.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace pcl {

namespace {

std::string hex32(std::uint32_t v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", unsigned(v));
    return buf;
}

} // namespace

std::string pte_low_name(std::uint32_t low)
{
    const std::string cleared = (low & kPagePresent) ? "" : "-";
    switch (low | kPagePresent) {
    case kPteLowA:
        return "A" + cleared;
    case kPteLowC:
        return "C" + cleared;
    default:
        return hex32(low);
    }
}

std::string pte_high_name(std::uint32_t high)
{
    switch (high) {
    case kPteHighB:
        return "B";
    case kPteHighD:
        return "D";
    case kPteHighE:
        return "E";
    default:
        return hex32(high);
    }
}

std::string pte_name(pteval_t pte)
{
    return pte_low_name(low_half(pte)) + pte_high_name(high_half(pte));
}

const std::vector<PteInterleaving>& pte_interleavings()
{
    static const std::vector<PteInterleaving> all = {
        { "ab_cd", "AB becomes CD between the reader's first and second load: present off, pte_high, present on",
            kPteAB, { { 1, kPteCD } } },
        { "ab_cd_ae", "AB becomes CD after the reader's first load and AE after its second", kPteAB,
            { { 1, kPteCD }, { 2, kPteAE } } },
    };
    return all;
}

const PteInterleaving& find_pte_interleaving(std::string_view name)
{
    std::string names;
    for (const PteInterleaving& i : pte_interleavings()) {
        if (i.name == name)
            return i;
        names += (names.empty() ? "" : ", ") + i.name;
    }
    throw std::invalid_argument("'" + std::string(name) + "' is not an interleaving; the interleavings: " + names);
}

std::string_view pte_actor_name(PteActor actor) noexcept
{
    return actor == PteActor::Reader ? "reader" : "writer";
}

namespace {

class ScriptObserver {
public:
    ScriptObserver(SplitPte& pte, const PteInterleaving& interleaving, PteScript& out)
        : pte_(pte)
        , interleaving_(interleaving)
        , out_(out)
        , steps_(pte, out)
    {
    }

    void before(PteOp op)
    {
        if (pte_op_loads(op)) {
            // A writer that is due while the reader holds the PTE lock spins
            // on it; it goes on once the reader releases it (after()).
            if (steps_.holder() == PteActor::Reader)
                note_writer_waits();
            else
                run_updates(loads_);
        }
        if (op == PteOp::Lock && pte_.lock_held())
            throw std::logic_error(
                "interleaving " + interleaving_.name + ": the reader would wait for the PTE lock the writer holds");
    }

    void after(PteOp op, const PteReaderRegs& regs, PteVerdict verdict)
    {
        if (pte_op_loads(op))
            ++loads_;
        steps_.reader(op, regs, verdict);
        if (op == PteOp::Unlock)
            run_updates(loads_);
    }

    /// Runs every update due once the reader has made @loads loads.
    void run_updates(unsigned loads)
    {
        if (steps_.holder() == PteActor::Reader)
            throw std::logic_error("interleaving " + interleaving_.name + ": the writer would wait forever");
        while (next_ < interleaving_.updates.size() && interleaving_.updates[next_].after_loads <= loads) {
            const pteval_t value = interleaving_.updates[next_++].value;
            for (const PteOp op : pte_.write_ops()) {
                pte_.write_step(op, value);
                steps_.writer(op, value);
            }
            ++out_.writes;
        }
    }

private:
    bool update_due() const
    {
        return next_ < interleaving_.updates.size() && interleaving_.updates[next_].after_loads <= loads_;
    }

    /// Records, once per update, that the writer found the lock held.
    void note_writer_waits()
    {
        if (!update_due() || waiting_ == next_ + 1)
            return;
        waiting_ = next_ + 1;
        steps_.writer_waits(interleaving_.updates[next_].value);
    }

    SplitPte& pte_;
    const PteInterleaving& interleaving_;
    PteScript& out_;
    PteStepRecorder steps_;
    std::size_t next_ = 0;
    std::size_t waiting_ = 0; ///< 1 + the update whose wait was recorded, 0 for none
    unsigned loads_ = 0;
};

} // namespace

PteScript run_pte_interleaving(PteReadMethod method, const PteInterleaving& interleaving)
{
    PteScript out;
    out.method = method;
    out.interleaving = interleaving.name;
    out.written.push_back(interleaving.initial);
    for (const PteUpdate& u : interleaving.updates)
        out.written.push_back(u.value);

    SplitPte pte(method, interleaving.initial);
    ScriptObserver obs(pte, interleaving, out);
    const PteRead read = pte.read(obs);
    obs.run_updates(std::numeric_limits<unsigned>::max());

    out.result = read.value;
    out.retries = read.retries;
    out.torn = std::find(out.written.begin(), out.written.end(), read.value) == out.written.end();
    return out;
}

} // namespace pcl
