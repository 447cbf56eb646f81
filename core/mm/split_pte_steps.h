// The record of a torn PTE read, one memory operation at a time: each
// operation of the reader or the writer on a SplitPte (mm/split_pte.h) as a
// PteStep, with what memory, the PTE lock, the sequence and the reader's
// registers hold after it, and the operation in words for a student.
//
// The scripted interleavings (mm/split_pte_script.h) and the explored
// schedules (mm/split_pte_explore.h) record through this one recorder, so
// that a schedule the explorer found reads, and is replayed by the torn PTE
// view, exactly as a scripted one.
#pragma once

#include "mm/split_pte.h"
#include "mm/split_pte_script.h"

#include <optional>
#include <string>

namespace pcl {

class PteStepRecorder {
public:
    /// Records into @out, whose @written must already list every entry the
    /// writer will write (its words say "an entry nobody wrote" from it).
    PteStepRecorder(const SplitPte& pte, PteScript& out)
        : pte_(pte)
        , out_(out)
    {
    }

    /// Who holds the PTE lock, as the recorded operations took and released it.
    std::optional<PteActor> holder() const noexcept { return holder_; }

    /// The reader did @op and decided @verdict, holding @regs.
    void reader(PteOp op, const PteReaderRegs& regs, PteVerdict verdict);
    /// The writer did @op of its update to @value.
    void writer(PteOp op, pteval_t value);
    /// The writer wants the PTE lock to write @value, but the reader holds it.
    void writer_waits(pteval_t value);
    /// The reader is about to do @op (Lock, SeqRead) and must wait for the
    /// writer first: the writer holds the lock, or the sequence is odd.
    void reader_waits(PteOp op);

private:
    bool written(pteval_t v) const;
    std::string returns(pteval_t v) const;
    std::string reader_words(PteOp op, const PteReaderRegs& r, PteVerdict verdict) const;
    std::string writer_words(PteOp op, pteval_t value) const;
    void record(PteActor who, PteOp op, PteVerdict verdict, std::string what);

    const SplitPte& pte_;
    PteScript& out_;
    std::optional<PteActor> holder_;
    PteReaderRegs regs_;
};

} // namespace pcl
