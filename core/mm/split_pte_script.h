// The torn PTE read step by step: a scripted interleaving of one reader and
// one writer on a SplitPte (mm/split_pte.h), for a teacher to walk through.
//
// An interleaving says when the writer updates the entry: right before the
// reader's n-th load of it (either half, or the whole 64-bit word). Each of
// the writer's updates runs whole, every operation of it (the PTE lock, the
// sequence, present off, pte_high, pte_low with present), as in the thread's
// diagrams (pagefault scalability (2005)); the reader runs its real code,
// SplitPte::read, whose observer hook lets the writer in at those points and
// records every operation of both with the memory and the reader's registers
// after it. Updates the reader's read never reached run after it returns, so
// every method ends on the same memory.
//
// The two interleavings are the thread's:
//   ab_cd     AB becomes CD between the reader's first and second load: the
//             naive reader returns AD.
//   ab_cd_ae  AB becomes CD after its first load and AE after its second:
//             re-reading pte_low finds A again and returns AD.
// The halves are named as the thread names them: the entry AB has pte_low A
// (present) and pte_high B; "A-" is A with its present bit cleared.
#pragma once

#include "mm/split_pte.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// The halves the lab writes: pte_low A and C (present, with the accessed,
/// dirty, user and writable bits, 0x067), pte_high B, D and E.
inline constexpr std::uint32_t kPteLowA = 0xa0000067;
inline constexpr std::uint32_t kPteLowC = 0xc0000067;
inline constexpr std::uint32_t kPteHighB = 0x0000000b;
inline constexpr std::uint32_t kPteHighD = 0x0000000d;
inline constexpr std::uint32_t kPteHighE = 0x0000000e;
inline constexpr pteval_t kPteAB = make_pte(kPteLowA, kPteHighB);
inline constexpr pteval_t kPteCD = make_pte(kPteLowC, kPteHighD);
inline constexpr pteval_t kPteAE = make_pte(kPteLowA, kPteHighE);

/// "A", "C", "A-" (present cleared) for a pte_low; "B", "D", "E" for a
/// pte_high; any other value in hex.
std::string pte_low_name(std::uint32_t low);
std::string pte_high_name(std::uint32_t high);
/// "AB", "AD", "A-D": pte_low's name, then pte_high's.
std::string pte_name(pteval_t pte);

/// One update of the writer in an interleaving.
struct PteUpdate {
    unsigned after_loads = 1; ///< runs once the reader has loaded the entry this many times, before its next load
    pteval_t value = 0;       ///< the entry it writes
};

/// A scripted interleaving of the reader and the writer.
struct PteInterleaving {
    std::string name;               ///< "ab_cd"
    std::string meaning;            ///< one line
    pteval_t initial = 0;           ///< the entry before the reader starts
    std::vector<PteUpdate> updates; ///< the writer's updates, in order
};

/// The interleavings, by name: ab_cd, ab_cd_ae.
const std::vector<PteInterleaving>& pte_interleavings();
/// The interleaving called @name; throws std::invalid_argument listing them.
const PteInterleaving& find_pte_interleaving(std::string_view name);

enum class PteActor : std::uint8_t { Reader, Writer };
/// "reader", "writer".
std::string_view pte_actor_name(PteActor actor) noexcept;

/// One operation of the reader or the writer, and what it left.
struct PteStep {
    PteActor who = PteActor::Reader;           ///< who acts
    PteOp op = PteOp::LoadLow;                 ///< the operation
    PteVerdict verdict = PteVerdict::Continue; ///< the reader's decision right after it (Continue for the writer)
    std::string what;                          ///< the operation and the decision in words
    std::uint32_t pte_low = 0;                 ///< pte_low in memory after the step (atomic64: the word's low half)
    std::uint32_t pte_high = 0;                ///< pte_high in memory after it
    std::uint64_t seq = 0;                     ///< the sequence after it (seqcount; 0 for the others)
    std::optional<PteActor> lock_holder;       ///< who holds the PTE lock after it
    PteReaderRegs reader;                      ///< what the reader holds after it
    std::string holds;                         ///< the same in words
};

/// A scripted read, step by step.
struct PteScript {
    PteReadMethod method = PteReadMethod::Naive; ///< how the reader read
    std::string interleaving;                    ///< the interleaving's name
    std::vector<PteStep> steps;                  ///< every operation of both, in order
    std::vector<pteval_t> written;               ///< the entries the memory held whole: the initial one and each update
    pteval_t result = 0;                         ///< the entry the reader returned
    bool torn = false;                           ///< @result is none of @written
    std::uint32_t retries = 0;                   ///< times the reader retried or backed out
    std::uint32_t writes = 0;                    ///< updates the writer made
};

/// Runs @interleaving with a reader reading by @method, for real, on one
/// thread: the writer's updates run inside the reader's observer hook.
/// Throws std::logic_error if the reader would wait for a lock the writer
/// holds (no interleaving here does: each update runs whole).
PteScript run_pte_interleaving(PteReadMethod method, const PteInterleaving& interleaving);

} // namespace pcl
