// The scripted interleavings: see split_pte_script.h.
#include "mm/split_pte_script.h"

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

bool shows_hint(PteReadMethod m) noexcept
{
    return m == PteReadMethod::RecheckUnderLock || m == PteReadMethod::PteSame;
}

std::string holds_words(PteReadMethod m, const PteReaderRegs& r)
{
    std::vector<std::string> parts;
    if (r.seq)
        parts.push_back("sequence " + std::to_string(*r.seq));
    if (r.holds_lock)
        parts.push_back("the PTE lock");
    if (shows_hint(m) && r.hint && (r.holds_lock || r.locked))
        parts.push_back("read without the lock " + pte_name(*r.hint));
    if (r.low)
        parts.push_back("pte_low " + pte_low_name(*r.low));
    if (r.high)
        parts.push_back("pte_high " + pte_high_name(*r.high));
    if (r.low_again)
        parts.push_back("pte_low again " + pte_low_name(*r.low_again));
    if (parts.empty())
        return "nothing";
    std::string s;
    for (const std::string& p : parts)
        s += (s.empty() ? "" : ", ") + p;
    return s;
}

class ScriptObserver {
public:
    ScriptObserver(SplitPte& pte, const PteInterleaving& interleaving, PteScript& out)
        : pte_(pte)
        , interleaving_(interleaving)
        , out_(out)
    {
    }

    void before(PteOp op)
    {
        if (pte_op_loads(op)) {
            // A writer that is due while the reader holds the PTE lock spins
            // on it; it goes on once the reader releases it (after()).
            if (holder_ == PteActor::Reader)
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
        if (op == PteOp::Lock)
            holder_ = PteActor::Reader;
        else if (op == PteOp::Unlock)
            holder_.reset();
        regs_ = regs;
        record(PteActor::Reader, op, verdict, reader_words(op, regs, verdict));
        if (op == PteOp::Unlock)
            run_updates(loads_);
    }

    /// Runs every update due once the reader has made @loads loads.
    void run_updates(unsigned loads)
    {
        if (holder_ == PteActor::Reader)
            throw std::logic_error("interleaving " + interleaving_.name + ": the writer would wait forever");
        while (next_ < interleaving_.updates.size() && interleaving_.updates[next_].after_loads <= loads) {
            const pteval_t value = interleaving_.updates[next_++].value;
            for (const PteOp op : pte_.write_ops()) {
                pte_.write_step(op, value);
                if (op == PteOp::Lock)
                    holder_ = PteActor::Writer;
                else if (op == PteOp::Unlock)
                    holder_.reset();
                record(PteActor::Writer, op, PteVerdict::Continue, writer_words(op, value));
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
        record(PteActor::Writer, PteOp::Lock, PteVerdict::Continue,
            "wants the PTE lock to write " + pte_name(interleaving_.updates[next_].value)
                + ", but the reader holds it: spins");
    }

    bool written(pteval_t v) const
    {
        return std::find(out_.written.begin(), out_.written.end(), v) != out_.written.end();
    }

    std::string returns(pteval_t v) const
    {
        return "returns " + pte_name(v) + (written(v) ? "" : ", an entry nobody wrote: torn");
    }

    std::string reader_words(PteOp op, const PteReaderRegs& r, PteVerdict verdict) const
    {
        const std::string locked = r.holds_lock ? " under the lock" : "";
        switch (op) {
        case PteOp::LoadLow:
            if (r.low_again) {
                const std::string s = "reads pte_low again: " + pte_low_name(*r.low_again);
                if (verdict == PteVerdict::Returns)
                    return s + ", as before; " + returns(make_pte(*r.low, *r.high));
                return s + ", not the " + pte_low_name(*r.low) + " it read first; starts again";
            }
            return "reads pte_low" + locked + ": " + pte_low_name(*r.low);
        case PteOp::LoadHigh: {
            const std::string s = "reads pte_high" + locked + ": " + pte_high_name(*r.high);
            const pteval_t entry = make_pte(*r.low, *r.high);
            if (verdict == PteVerdict::Returns)
                return s + "; " + returns(entry);
            if (verdict == PteVerdict::BacksOut)
                return s + "; " + pte_name(entry) + " is not the " + pte_name(*r.hint)
                    + " it read without the lock: backs out"
                    + (method() == PteReadMethod::RecheckUnderLock ? " and acts on " + pte_name(entry) : "");
            if (r.holds_lock)
                return s + "; " + pte_name(entry) + ", the same as without the lock";
            if (r.low_again || method() == PteReadMethod::RereadFirst)
                return s;
            return s + "; it has " + pte_name(entry);
        }
        case PteOp::Load64:
            return "reads the whole entry in one 64-bit load: " + pte_name(*r.hint) + "; " + returns(*r.hint);
        case PteOp::Lock:
            return "takes the PTE lock";
        case PteOp::Unlock:
            if (verdict == PteVerdict::Retries)
                return "releases the PTE lock; the fault starts again";
            return "releases the PTE lock; "
                + returns(method() == PteReadMethod::RecheckUnderLock ? *r.locked : *r.hint);
        case PteOp::SeqRead:
            return "reads the sequence: " + std::to_string(*r.seq) + ", even: no writer is inside";
        case PteOp::SeqRecheck: {
            const std::string now = std::to_string(pte_.sequence());
            if (verdict == PteVerdict::Retries)
                return "reads the sequence again: " + now + ", not " + std::to_string(*r.seq)
                    + ": a writer came by; starts again";
            return "reads the sequence again: still " + now + "; " + returns(*r.hint);
        }
        default:
            break;
        }
        throw std::logic_error("split_pte_script: a writer's operation recorded as the reader's");
    }

    std::string writer_words(PteOp op, pteval_t value) const
    {
        const pteval_t now = pte_.memory();
        switch (op) {
        case PteOp::Lock:
            return "takes the PTE lock to write " + pte_name(value);
        case PteOp::Unlock:
            return "releases the PTE lock";
        case PteOp::SeqBegin:
            return "makes the sequence odd: " + std::to_string(pte_.sequence());
        case PteOp::SeqEnd:
            return "makes the sequence even: " + std::to_string(pte_.sequence());
        case PteOp::ClearPresent:
            return "clears the present bit in pte_low: " + pte_low_name(low_half(now));
        case PteOp::WriteHigh:
            return "writes pte_high: " + pte_high_name(high_half(now));
        case PteOp::WriteLow:
            return "writes pte_low with the present bit: " + pte_low_name(low_half(now)) + "; the entry is "
                + pte_name(now);
        case PteOp::Store64:
            return "writes the whole entry in one 64-bit store: " + pte_name(now);
        default:
            break;
        }
        throw std::logic_error("split_pte_script: a reader's operation recorded as the writer's");
    }

    PteReadMethod method() const noexcept { return pte_.method(); }

    void record(PteActor who, PteOp op, PteVerdict verdict, std::string what)
    {
        PteStep s;
        s.who = who;
        s.op = op;
        s.verdict = verdict;
        s.what = std::move(what);
        const pteval_t now = pte_.memory();
        s.pte_low = low_half(now);
        s.pte_high = high_half(now);
        s.seq = pte_.sequence();
        s.lock_holder = holder_;
        s.reader = regs_;
        s.holds = holds_words(method(), regs_);
        out_.steps.push_back(std::move(s));
    }

    SplitPte& pte_;
    const PteInterleaving& interleaving_;
    PteScript& out_;
    std::size_t next_ = 0;
    std::size_t waiting_ = 0; ///< 1 + the update whose wait was recorded, 0 for none
    unsigned loads_ = 0;
    std::optional<PteActor> holder_;
    PteReaderRegs regs_;
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
