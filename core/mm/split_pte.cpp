// SplitPte: see split_pte.h.
#include "mm/split_pte.h"

#include <stdexcept>
#include <string>

namespace pcl {

std::string_view pte_read_method_name(PteReadMethod method) noexcept
{
    switch (method) {
    case PteReadMethod::Naive:
        return "naive";
    case PteReadMethod::RereadFirst:
        return "reread_first";
    case PteReadMethod::RecheckUnderLock:
        return "recheck_under_lock";
    case PteReadMethod::PteSame:
        return "pte_same";
    case PteReadMethod::Atomic64:
        return "atomic64";
    case PteReadMethod::Seqcount:
        return "seqcount";
    }
    return "?";
}

PteReadMethod parse_pte_read_method(std::string_view name)
{
    std::string names;
    for (const PteReadMethod m : kPteReadMethods) {
        if (pte_read_method_name(m) == name)
            return m;
        names += (names.empty() ? "" : ", ") + std::string(pte_read_method_name(m));
    }
    throw std::invalid_argument("'" + std::string(name) + "' is not a PTE read method; the methods: " + names);
}

SplitPte::SplitPte(PteReadMethod method, pteval_t initial) noexcept
    : pte_low(low_half(initial))
    , pte_high(high_half(initial))
    , pte64(initial)
    , method_(method)
{
}

namespace {

// The writer's operations by method. Every writer holds the PTE lock: "all
// the writes are done within ptlock" (Dickins, pagefault scalability (2005)).
constexpr PteOp kPaeSetPte[] = { PteOp::Lock, PteOp::ClearPresent, PteOp::WriteHigh, PteOp::WriteLow, PteOp::Unlock };
constexpr PteOp kSetPteAtomic[] = { PteOp::Lock, PteOp::Store64, PteOp::Unlock };
constexpr PteOp kSeqcountSetPte[] = { PteOp::Lock, PteOp::SeqBegin, PteOp::ClearPresent, PteOp::WriteHigh,
    PteOp::WriteLow, PteOp::SeqEnd, PteOp::Unlock };

} // namespace

std::span<const PteOp> SplitPte::write_ops() const noexcept
{
    switch (method_) {
    case PteReadMethod::Atomic64:
        return kSetPteAtomic;
    case PteReadMethod::Seqcount:
        return kSeqcountSetPte;
    default:
        return kPaeSetPte;
    }
}

void SplitPte::write_step(PteOp op, pteval_t value)
{
    switch (op) {
    case PteOp::Lock:
        ptl.lock();
        break;
    case PteOp::Unlock:
        ptl.unlock();
        break;
    case PteOp::SeqBegin:
        seq.write_begin();
        break;
    case PteOp::SeqEnd:
        seq.write_end();
        break;
    case PteOp::ClearPresent:
        // Only the lock holder stores pte_low, so its own relaxed load is
        // the current value. Release: the stores before it are seen first.
        pte_low.store(pte_low.load(std::memory_order_relaxed) & ~kPagePresent, std::memory_order_release);
        break;
    case PteOp::WriteHigh:
        // Release orders it after the cleared present bit: a reader that
        // sees the new pte_high and then loads pte_low sees present off or
        // the new pte_low, never the old entry's present pte_low.
        pte_high.store(high_half(value), std::memory_order_release);
        break;
    case PteOp::WriteLow:
        pte_low.store(low_half(value), std::memory_order_release);
        break;
    case PteOp::Store64:
        pte64.store(value, std::memory_order_release);
        break;
    case PteOp::LoadLow:
    case PteOp::LoadHigh:
    case PteOp::Load64:
    case PteOp::SeqRead:
    case PteOp::SeqRecheck:
        throw std::invalid_argument("SplitPte::write_step: a reader's operation is not the writer's");
    }
}

pteval_t SplitPte::memory() const noexcept
{
    if (method_ == PteReadMethod::Atomic64)
        return pte64.load(std::memory_order_relaxed);
    return make_pte(pte_low.load(std::memory_order_relaxed), pte_high.load(std::memory_order_relaxed));
}

} // namespace pcl
