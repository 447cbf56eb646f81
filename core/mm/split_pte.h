// One page-table entry of i386 PAE, and the ways a fault handler can read it
// without the PTE lock (pagefault scalability (2005): "[RFT][PATCH 0/2]
// pagefault scalability alternative", linux-mm, August 2005).
//
// With PAE a PTE is 64 bits, but an i386 CPU loads and stores 32 at a time:
// the kernel keeps pte_t as two words, pte_low (which holds _PAGE_PRESENT)
// and pte_high. Every writer holds the PTE lock, and changes an entry the
// way that thread describes: "the present bit is first switched off", then
// the other half is written, "last the word with the present bit is written"
// (PAE's set_pte after the entry was cleared: pte_high, smp_wmb, pte_low).
// Hugh Dickins' patch read entries without that lock in handle_pte_fault, so
// a reader reads two words while a writer may change the entry between them:
//
//   Reader               Writer
//   read pte_low  (A)
//                        clear present in pte_low
//                        write pte_high (D)
//                        write pte_low with present (C)
//   read pte_high (D)    -> the reader has AD, an entry nobody wrote.
//
// Re-reading pte_low and retrying when it changed does not help: AB -> CD
// -> AE reads A, D, A and returns AD. What holds (PteReadMethod):
// recheck the entry under the PTE lock that every writer holds (Dickins:
// "recheck entry under ptlock before proceeding further", acting on nothing
// irrevocable before), compare it there with pte_same (Linux wraps that
// recheck in pte_unmap_same, the kind of helper Nick Piggin asked for), read and
// write the entry as one 64-bit word (Piggin: "you need 64-bit atomic reads
// and writes"; cmpxchg8b on i386), or put a sequence count around the
// writer and retry a read that a writer overlapped.
//
// Both halves are std::atomic, so that a read racing a write is defined
// behaviour (and quiet under ThreadSanitizer): what a torn read returns is
// two values each of which was really in memory, exactly as on the CPU.
// The writer's stores are releases and the reader's loads acquires, the
// C++ spelling of the kernel's smp_wmb and smp_rmb between the halves.
//
// The readers are templates on an observer called around each of their
// memory operations: free-running threads pass one that does nothing
// (mm/split_pte_race.h), the scripted interleavings one that lets the
// writer act between two of the reader's loads and records every step
// (mm/split_pte_script.h). Both run this same code.
#pragma once

#include "sync/raw_locks.h"
#include "sync/seqcount.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace pcl {

/// A PTE's value: pte_high in bits 63..32, pte_low in bits 31..0.
using pteval_t = std::uint64_t;

/// _PAGE_PRESENT, bit 0 of pte_low.
inline constexpr std::uint32_t kPagePresent = 0x001;

constexpr pteval_t make_pte(std::uint32_t low, std::uint32_t high) noexcept
{
    return (pteval_t(high) << 32) | low;
}
constexpr std::uint32_t low_half(pteval_t pte) noexcept
{
    return std::uint32_t(pte);
}
constexpr std::uint32_t high_half(pteval_t pte) noexcept
{
    return std::uint32_t(pte >> 32);
}
constexpr bool pte_present(pteval_t pte) noexcept
{
    return (low_half(pte) & kPagePresent) != 0;
}
/// pte_same: both halves equal (on PAE the kernel compares the two words).
constexpr bool pte_same(pteval_t a, pteval_t b) noexcept
{
    return a == b;
}

/// How a fault handler reads an entry that a writer may be changing.
enum class PteReadMethod : std::uint8_t {
    Naive,            ///< pte_low, then pte_high: can be torn
    RereadFirst,      ///< pte_low, pte_high, pte_low again; retry if it changed: still torn by AB -> CD -> AE
    RecheckUnderLock, ///< read unlocked as a hint, then re-read under the PTE lock and act on that
    PteSame,          ///< read unlocked, confirm with pte_same on a full re-read under the lock, else retry
    Atomic64,         ///< the entry is one 64-bit word, written and read with single 64-bit accesses
    Seqcount,         ///< a sequence count around the writer; retry a read that a write overlapped
};

inline constexpr std::array<PteReadMethod, 6> kPteReadMethods = { PteReadMethod::Naive, PteReadMethod::RereadFirst,
    PteReadMethod::RecheckUnderLock, PteReadMethod::PteSame, PteReadMethod::Atomic64, PteReadMethod::Seqcount };

/// "naive", "reread_first", "recheck_under_lock", "pte_same", "atomic64", "seqcount".
std::string_view pte_read_method_name(PteReadMethod method) noexcept;
/// Throws std::invalid_argument listing the methods.
PteReadMethod parse_pte_read_method(std::string_view name);
/// True for the methods that can never return a torn entry.
constexpr bool pte_read_method_holds(PteReadMethod method) noexcept
{
    return method != PteReadMethod::Naive && method != PteReadMethod::RereadFirst;
}

/// One memory operation of the reader or the writer.
enum class PteOp : std::uint8_t {
    Lock,         ///< takes the PTE lock (writer, or a reader that rechecks)
    Unlock,       ///< releases it
    SeqBegin,     ///< writer: makes the sequence odd (write_seqcount_begin)
    SeqEnd,       ///< writer: makes it even again (write_seqcount_end)
    ClearPresent, ///< writer: stores pte_low without _PAGE_PRESENT
    WriteHigh,    ///< writer: stores the new pte_high
    WriteLow,     ///< writer: stores the new pte_low, present
    Store64,      ///< writer: stores the whole entry in one 64-bit store (set_pte_atomic)
    LoadLow,      ///< reader: loads pte_low
    LoadHigh,     ///< reader: loads pte_high
    Load64,       ///< reader: loads the whole entry in one 64-bit load
    SeqRead,      ///< reader: reads the sequence, waiting out an odd one (read_seqcount_begin)
    SeqRecheck,   ///< reader: reads it again (read_seqcount_retry)
};

/// True for the operations that load the entry (either half or all of it).
constexpr bool pte_op_loads(PteOp op) noexcept
{
    return op == PteOp::LoadLow || op == PteOp::LoadHigh || op == PteOp::Load64;
}

/// What a reader decided right after one of its operations.
enum class PteVerdict : std::uint8_t {
    Continue, ///< goes on to its next operation
    Returns,  ///< its read is done
    Retries,  ///< starts the read again
    BacksOut, ///< the entry changed under it: undoes what it did for the entry it read first
};

/// What a reader holds in its registers after each operation.
struct PteReaderRegs {
    std::optional<std::uint32_t> low;       ///< the pte_low it read last
    std::optional<std::uint32_t> high;      ///< the pte_high it read last
    std::optional<std::uint32_t> low_again; ///< reread_first: pte_low read a second time
    std::optional<pteval_t> hint;           ///< recheck_under_lock, pte_same: the entry read without the lock
    std::optional<pteval_t> locked;         ///< recheck_under_lock, pte_same: the entry read under the lock
    std::optional<std::uint64_t> seq;       ///< seqcount: the sequence its read section began at
    bool holds_lock = false;                ///< it holds the PTE lock
    std::uint32_t retries = 0;              ///< times it retried or backed out so far
};

/// One read's outcome.
struct PteRead {
    pteval_t value = 0;        ///< the entry the reader returned
    std::uint32_t retries = 0; ///< times it retried or backed out
};

/// An observer that does nothing: the free-running readers'.
struct PteNoObserver {
    void before(PteOp) noexcept { }
    void after(PteOp, const PteReaderRegs&, PteVerdict) noexcept { }
};

/// One page-table entry with the PTE lock that guards it. @method says how
/// it is written and read: the halves for every method but atomic64, whose
/// entry is the one 64-bit word.
class SplitPte {
public:
    explicit SplitPte(PteReadMethod method, pteval_t initial = 0) noexcept;
    SplitPte(const SplitPte&) = delete;
    SplitPte& operator=(const SplitPte&) = delete;

    PteReadMethod method() const noexcept { return method_; }

    /// The writer's operations for one update, in order: the PTE lock,
    /// the sequence for seqcount, then either the three stores of PAE's
    /// set_pte (present off, pte_high, pte_low with present) or atomic64's
    /// single store.
    std::span<const PteOp> write_ops() const noexcept;
    /// Does one of the writer's operations, toward entry @value. Throws
    /// std::invalid_argument for a reader's operation.
    void write_step(PteOp op, pteval_t value);
    /// One whole update to @value: every write_ops() step in order.
    void set_pte(pteval_t value)
    {
        for (const PteOp op : write_ops())
            write_step(op, value);
    }

    /// What memory holds now (relaxed loads): for display, and for checks
    /// once every thread has finished.
    pteval_t memory() const noexcept;
    /// The seqcount method's sequence (0 for the others).
    std::uint64_t sequence() const noexcept { return seq.sequence(); }
    bool lock_held() const noexcept { return ptl.is_locked(); }

    /// Reads the entry by the method, calling @obs around each operation.
    template <class Observer> PteRead read(Observer& obs);
    PteRead read()
    {
        PteNoObserver none;
        return read(none);
    }

    std::atomic<std::uint32_t> pte_low;  ///< _PAGE_PRESENT and the low frame bits
    std::atomic<std::uint32_t> pte_high; ///< the high frame bits
    std::atomic<pteval_t> pte64;         ///< atomic64 only: the entry as one word
    sync::RawSpinLock ptl;               ///< the PTE lock every writer holds
    sync::SeqCount seq;                  ///< seqcount only: bumped odd and even around each update

private:
    template <class Observer> std::uint32_t load_low(Observer& obs, PteReaderRegs& regs);
    template <class Observer>
    pteval_t load_both(Observer& obs, PteReaderRegs& regs, PteVerdict after_high, const pteval_t* expect = nullptr);

    template <class Observer> PteRead read_naive(Observer& obs);
    template <class Observer> PteRead read_reread_first(Observer& obs);
    template <class Observer> PteRead read_recheck_under_lock(Observer& obs);
    template <class Observer> PteRead read_pte_same(Observer& obs);
    template <class Observer> PteRead read_atomic64(Observer& obs);
    template <class Observer> PteRead read_seqcount(Observer& obs);

    PteReadMethod method_;

    static_assert(std::atomic<pteval_t>::is_always_lock_free, "atomic64 needs a lock-free 64-bit word");
    static_assert(std::atomic<std::uint32_t>::is_always_lock_free);
};

template <class Observer> PteRead SplitPte::read(Observer& obs)
{
    switch (method_) {
    case PteReadMethod::Naive:
        return read_naive(obs);
    case PteReadMethod::RereadFirst:
        return read_reread_first(obs);
    case PteReadMethod::RecheckUnderLock:
        return read_recheck_under_lock(obs);
    case PteReadMethod::PteSame:
        return read_pte_same(obs);
    case PteReadMethod::Atomic64:
        return read_atomic64(obs);
    case PteReadMethod::Seqcount:
        return read_seqcount(obs);
    }
    return {};
}

template <class Observer> std::uint32_t SplitPte::load_low(Observer& obs, PteReaderRegs& regs)
{
    obs.before(PteOp::LoadLow);
    regs.low = pte_low.load(std::memory_order_acquire);
    regs.high.reset();
    regs.low_again.reset();
    obs.after(PteOp::LoadLow, regs, PteVerdict::Continue);
    return *regs.low;
}

/// pte_low then pte_high, each an acquire load (the smp_rmb between them),
/// with @after_high the reader's verdict once it has both; if @expect is
/// given and the entry is not pte_same with it, the reader backs out.
template <class Observer>
pteval_t SplitPte::load_both(Observer& obs, PteReaderRegs& regs, PteVerdict after_high, const pteval_t* expect)
{
    const std::uint32_t low = load_low(obs, regs);
    obs.before(PteOp::LoadHigh);
    regs.high = pte_high.load(std::memory_order_acquire);
    const pteval_t entry = make_pte(low, *regs.high);
    if (regs.holds_lock)
        regs.locked = entry;
    else
        regs.hint = entry;
    if (expect && !pte_same(entry, *expect)) {
        ++regs.retries;
        after_high = PteVerdict::BacksOut;
    }
    obs.after(PteOp::LoadHigh, regs, after_high);
    return entry;
}

template <class Observer> PteRead SplitPte::read_naive(Observer& obs)
{
    PteReaderRegs regs;
    return { load_both(obs, regs, PteVerdict::Returns), 0 };
}

// The thread's "first obvious fix": read the first half a second time and
// retry if it changed. AB -> AC may pass unnoticed, harmlessly; AB -> CD ->
// AE passes as AD. (Linux's lockless get_user_pages reads PAE entries this
// way, gup_get_pte and later ptep_get_lockless, and it holds there only
// because that walker runs with interrupts off: a present entry cannot
// become another present entry without a TLB-flush interrupt, which waits
// for the walker. A fault handler has no such guarantee.)
template <class Observer> PteRead SplitPte::read_reread_first(Observer& obs)
{
    PteReaderRegs regs;
    for (;;) {
        const std::uint32_t low = load_low(obs, regs);
        obs.before(PteOp::LoadHigh);
        regs.high = pte_high.load(std::memory_order_acquire);
        obs.after(PteOp::LoadHigh, regs, PteVerdict::Continue);
        const std::uint32_t high = *regs.high;
        obs.before(PteOp::LoadLow);
        regs.low_again = pte_low.load(std::memory_order_acquire);
        const bool same = *regs.low_again == low;
        if (!same)
            ++regs.retries;
        obs.after(PteOp::LoadLow, regs, same ? PteVerdict::Returns : PteVerdict::Retries);
        if (same)
            return { make_pte(low, high), regs.retries };
    }
}

// Dickins' handlers: the unlocked read only chose what to do (a page may be
// allocated or looked up on its strength, nothing irrevocable); under the
// PTE lock the entry is read again, and that read, which no writer can
// overlap, is what the handler acts on. A hint that differs from it is
// backed out: the work done for the hint is undone.
template <class Observer> PteRead SplitPte::read_recheck_under_lock(Observer& obs)
{
    PteReaderRegs regs;
    const pteval_t hint = load_both(obs, regs, PteVerdict::Continue);
    obs.before(PteOp::Lock);
    ptl.lock();
    regs.holds_lock = true;
    obs.after(PteOp::Lock, regs, PteVerdict::Continue);
    const pteval_t locked = load_both(obs, regs, PteVerdict::Continue, &hint);
    obs.before(PteOp::Unlock);
    ptl.unlock();
    regs.holds_lock = false;
    obs.after(PteOp::Unlock, regs, PteVerdict::Returns);
    return { locked, regs.retries };
}

// pte_unmap_same: the handler means to act on the entry it read without the
// lock (a swap entry, say), so it confirms that entry under the lock with
// pte_same on a full re-read of both halves; if they differ it backs out
// and the fault starts again. A torn read never equals the entry in memory
// under the lock, unless that entry is the same value, really written.
template <class Observer> PteRead SplitPte::read_pte_same(Observer& obs)
{
    PteReaderRegs regs;
    for (;;) {
        regs.locked.reset();
        const pteval_t hint = load_both(obs, regs, PteVerdict::Continue);
        obs.before(PteOp::Lock);
        ptl.lock();
        regs.holds_lock = true;
        obs.after(PteOp::Lock, regs, PteVerdict::Continue);
        const pteval_t locked = load_both(obs, regs, PteVerdict::Continue, &hint);
        const bool same = pte_same(locked, hint);
        obs.before(PteOp::Unlock);
        ptl.unlock();
        regs.holds_lock = false;
        obs.after(PteOp::Unlock, regs, same ? PteVerdict::Returns : PteVerdict::Retries);
        if (same)
            return { hint, regs.retries };
    }
}

template <class Observer> PteRead SplitPte::read_atomic64(Observer& obs)
{
    PteReaderRegs regs;
    obs.before(PteOp::Load64);
    const pteval_t entry = pte64.load(std::memory_order_acquire);
    regs.low = low_half(entry);
    regs.high = high_half(entry);
    regs.hint = entry;
    obs.after(PteOp::Load64, regs, PteVerdict::Returns);
    return { entry, 0 };
}

template <class Observer> PteRead SplitPte::read_seqcount(Observer& obs)
{
    PteReaderRegs regs;
    for (;;) {
        obs.before(PteOp::SeqRead);
        regs.seq = seq.read_begin();
        regs.low.reset();
        regs.high.reset();
        regs.hint.reset();
        obs.after(PteOp::SeqRead, regs, PteVerdict::Continue);
        const pteval_t entry = load_both(obs, regs, PteVerdict::Continue);
        obs.before(PteOp::SeqRecheck);
        const bool retry = seq.read_retry(*regs.seq);
        if (retry)
            ++regs.retries;
        obs.after(PteOp::SeqRecheck, regs, retry ? PteVerdict::Retries : PteVerdict::Returns);
        if (!retry)
            return { entry, regs.retries };
    }
}

} // namespace pcl
