// The record of a torn PTE read: see split_pte_steps.h.
#include "mm/split_pte_steps.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace pcl {

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

} // namespace

void PteStepRecorder::reader(PteOp op, const PteReaderRegs& regs, PteVerdict verdict)
{
    if (op == PteOp::Lock)
        holder_ = PteActor::Reader;
    else if (op == PteOp::Unlock)
        holder_.reset();
    regs_ = regs;
    record(PteActor::Reader, op, verdict, reader_words(op, regs, verdict));
}

void PteStepRecorder::writer(PteOp op, pteval_t value)
{
    if (op == PteOp::Lock)
        holder_ = PteActor::Writer;
    else if (op == PteOp::Unlock)
        holder_.reset();
    record(PteActor::Writer, op, PteVerdict::Continue, writer_words(op, value));
}

void PteStepRecorder::writer_waits(pteval_t value)
{
    record(PteActor::Writer, PteOp::Lock, PteVerdict::Continue,
        "wants the PTE lock to write " + pte_name(value) + ", but the reader holds it: spins");
}

void PteStepRecorder::reader_waits(PteOp op)
{
    // A waiting reader holds what it held: its registers are unchanged.
    if (op == PteOp::Lock)
        record(PteActor::Reader, op, PteVerdict::Continue, "wants the PTE lock, but the writer holds it: spins");
    else
        record(PteActor::Reader, op, PteVerdict::Continue,
            "reads the sequence: " + std::to_string(pte_.sequence()) + ", odd: a writer is inside; waits");
}

bool PteStepRecorder::written(pteval_t v) const
{
    return std::find(out_.written.begin(), out_.written.end(), v) != out_.written.end();
}

std::string PteStepRecorder::returns(pteval_t v) const
{
    return "returns " + pte_name(v) + (written(v) ? "" : ", an entry nobody wrote: torn");
}

std::string PteStepRecorder::reader_words(PteOp op, const PteReaderRegs& r, PteVerdict verdict) const
{
    const PteReadMethod method = pte_.method();
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
                + (method == PteReadMethod::RecheckUnderLock ? " and acts on " + pte_name(entry) : "");
        if (r.holds_lock)
            return s + "; " + pte_name(entry) + ", the same as without the lock";
        if (r.low_again || method == PteReadMethod::RereadFirst)
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
        return "releases the PTE lock; " + returns(method == PteReadMethod::RecheckUnderLock ? *r.locked : *r.hint);
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
    throw std::logic_error("split_pte_steps: a writer's operation recorded as the reader's");
}

std::string PteStepRecorder::writer_words(PteOp op, pteval_t value) const
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
    throw std::logic_error("split_pte_steps: a reader's operation recorded as the writer's");
}

void PteStepRecorder::record(PteActor who, PteOp op, PteVerdict verdict, std::string what)
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
    s.holds = holds_words(pte_.method(), regs_);
    out_.steps.push_back(std::move(s));
}

} // namespace pcl
