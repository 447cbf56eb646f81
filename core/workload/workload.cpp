// Workload specs and the per-CPU operation generators.
#include "workload/workload.h"

#include "lib/field_error.h"

#include <algorithm>
#include <stdexcept>

namespace pcl {

namespace {

[[noreturn]] void throw_range(const char* field, const std::string& range, const std::string& got)
{
    const std::string reason = "must be in " + range + ", got " + got;
    throw FieldError(field, reason, std::string("workload ") + field + " " + reason);
}

pgoff_t div_round_up(pgoff_t n, pgoff_t d)
{
    return (n + d - 1) / d;
}

} // namespace

void WorkloadSpec::validate() const
{
    if (file_pages < 1 || file_pages > kMaxFilePages)
        throw_range("file_pages", "[1, 2^40]", std::to_string(file_pages));
    if (cpus < 1 || cpus > kMaxCpus)
        throw_range("cpus", "[1, " + std::to_string(kMaxCpus) + "]", std::to_string(cpus));
    if (request_pages < 1 || request_pages > file_pages)
        throw_range(
            "request_pages", "[1, file_pages = " + std::to_string(file_pages) + "]", std::to_string(request_pages));
    // Only strided uses the stride, so a default of 16 must not reject a small file for the other patterns.
    if (pattern == WorkloadPattern::Strided && (stride < 1 || stride > file_pages))
        throw_range("stride", "[1, file_pages = " + std::to_string(file_pages) + "]", std::to_string(stride));
    // Written so that NaN fails too.
    if (!(read_fraction >= 0.0 && read_fraction <= 1.0))
        throw_range("read_fraction", "[0, 1]", std::to_string(read_fraction));
    if (!(write_fraction >= 0.0 && write_fraction <= 1.0))
        throw_range("write_fraction", "[0, 1]", std::to_string(write_fraction));
    // pft has no file to sync; morton's process A is timed over a fixed
    // number of reads.
    if ((pattern == WorkloadPattern::Pft || pattern == WorkloadPattern::Morton) && (fsync_every || sync_every))
        throw_range(fsync_every ? "fsync_every" : "sync_every",
            "{0} for " + std::string(workload_pattern_name(pattern)),
            std::to_string(fsync_every ? fsync_every : sync_every));
    if (operations_per_cpu < 1)
        throw_range("operations_per_cpu", "[1, 2^64)", "0");
    // Every CPU must get a non-empty share, or it would have nothing to do.
    if (pattern == WorkloadPattern::Pft && file_pages < cpus)
        throw_range("file_pages", "[cpus = " + std::to_string(cpus) + ", 2^40] for pft (one page per CPU at least)",
            std::to_string(file_pages));
    if (pattern == WorkloadPattern::TwoStreams && file_pages < 2)
        throw_range(
            "file_pages", "[2, 2^40] for two_streams (one page per stream at least)", std::to_string(file_pages));
    if (pattern == WorkloadPattern::Morton) {
        if (cpus != 2)
            throw_range("cpus", "{2} for morton (process A and process B)", std::to_string(cpus));
        if (nfiles < 1 || nfiles > kMaxMortonFiles)
            throw_range("nfiles", "[1, " + std::to_string(kMaxMortonFiles) + "]", std::to_string(nfiles));
        if (stream_pages < 1 || stream_pages > kMaxFilePages)
            throw_range("stream_pages", "[1, 2^40]", std::to_string(stream_pages));
    }
    if (pattern == WorkloadPattern::Interleaved) {
        const pgoff_t unit = access == WorkloadAccess::Read || access == WorkloadAccess::Write ? request_pages : 1;
        if (div_round_up(file_pages, unit) < cpus)
            throw_range("file_pages",
                "[cpus * request size = " + std::to_string(std::uint64_t(cpus) * unit)
                    + ", 2^40] for interleaved (one request per CPU at least)",
                std::to_string(file_pages));
    }
}

unsigned WorkloadSpec::files_needed() const noexcept
{
    if (pattern == WorkloadPattern::Pft)
        return 0;
    if (pattern == WorkloadPattern::Morton)
        return nfiles + 1;
    return files == FileSharing::Shared ? 1 : cpus;
}

pgoff_t WorkloadSpec::file_size(FileId file) const noexcept
{
    return pattern == WorkloadPattern::Morton && file == nfiles ? stream_pages : file_pages;
}

unsigned WorkloadSpec::disk_of(FileId file) const noexcept
{
    return pattern == WorkloadPattern::Morton && file == nfiles ? 1 : 0;
}

FileId WorkloadSpec::file_of(unsigned cpu) const noexcept
{
    return files == FileSharing::Shared ? 0 : FileId(cpu);
}

pgoff_t WorkloadSpec::anon_pages() const noexcept
{
    return pattern == WorkloadPattern::Pft ? file_pages : 0;
}

WorkloadGenerator::WorkloadGenerator(const WorkloadSpec& spec, unsigned cpu)
    : rng_(SplitMix64::mix(spec.seed ^ SplitMix64::mix(std::uint64_t(cpu) + 1)))
    , write_rng_(SplitMix64::mix(~spec.seed ^ SplitMix64::mix(std::uint64_t(cpu) + 1)))
{
    spec.validate();
    if (cpu >= spec.cpus)
        throw_range("cpu", "[0, cpus = " + std::to_string(spec.cpus) + ")", std::to_string(cpu));
    pattern_ = spec.pattern;
    kind_ = spec.access == WorkloadAccess::Read ? OperationKind::Read
        : spec.access == WorkloadAccess::Write  ? OperationKind::Write
                                                : OperationKind::FileFault;
    write_ = spec.access == WorkloadAccess::MmapWrite;
    write_fraction_ = spec.write_fraction;
    fsync_every_ = spec.fsync_every;
    sync_every_ = spec.sync_every;
    file_ = spec.file_of(cpu);
    file_pages_ = spec.file_pages;
    unit_ = kind_ == OperationKind::FileFault ? 1 : spec.request_pages;
    stride_ = spec.stride;
    request_pages_ = spec.request_pages;
    requests_ = div_round_up(file_pages_, unit_);
    read_fraction_ = spec.read_fraction;
    cpu_ = cpu;
    cpus_ = spec.cpus;
    length_ = spec.operations_per_cpu;

    switch (pattern_) {
    case WorkloadPattern::Interleaved:
        cursor_ = cpu;
        break;
    case WorkloadPattern::Pft: {
        write_fraction_ = 0;
        const pgoff_t share = file_pages_ / cpus_;
        cursor_ = pgoff_t(cpu) * share;
        length_ = std::min<std::uint64_t>(length_, share);
        file_ = 0;
        break;
    }
    case WorkloadPattern::TwoStreams:
        // The second stream starts at the first request boundary in the
        // second half of the file.
        half_ = std::max<pgoff_t>(1, div_round_up(requests_, 2)) * unit_;
        if (half_ >= file_pages_)
            half_ = file_pages_ / 2;
        cursor2_ = half_;
        break;
    case WorkloadPattern::Morton:
        // Both processes use read(2): A's 4 KB reads, B's streaming.
        kind_ = OperationKind::Read;
        write_ = false;
        write_fraction_ = 0;
        nfiles_ = spec.nfiles;
        if (cpu == 0) {
            length_ = std::uint64_t(nfiles_) * requests_;
        } else {
            file_ = FileId(nfiles_);
            file_pages_ = spec.stream_pages;
            unit_ = std::min(WorkloadSpec::kStreamRequestPages, file_pages_);
            length_ = ~std::uint64_t(0); // until A is done
        }
        break;
    default:
        break;
    }
}

void WorkloadGenerator::emit(Operation& op, pgoff_t index) const
{
    op.kind = kind_;
    op.file = file_;
    op.index = index;
    op.count = std::min(unit_, file_pages_ - index);
    op.write = kind_ == OperationKind::FileFault && write_;
}

bool WorkloadGenerator::next(Operation& op)
{
    if (issued_ >= length_)
        return false;
    ++issued_;
    // The syncs take their turn among the operations; the pattern's own
    // sequence continues after them unchanged.
    if (sync_every_ && since_sync_ == sync_every_) {
        since_sync_ = 0;
        op = Operation { OperationKind::Sync, file_, 0, 0, false };
        return true;
    }
    if (fsync_every_ && since_fsync_ == fsync_every_) {
        since_fsync_ = 0;
        ++since_sync_;
        op = Operation { OperationKind::Fsync, file_, 0, 0, false };
        return true;
    }
    ++since_fsync_;
    ++since_sync_;
    next_of_pattern(op, pattern_ops_++);
    if (write_fraction_ > 0 && (op.kind == OperationKind::Read || (op.kind == OperationKind::FileFault && !op.write))
        && write_rng_.unit() < write_fraction_) {
        op.kind = OperationKind::Write;
        op.write = false;
    }
    return true;
}

void WorkloadGenerator::next_of_pattern(Operation& op, std::uint64_t i)
{
    switch (pattern_) {
    case WorkloadPattern::Sequential:
        emit(op, cursor_);
        cursor_ += op.count;
        if (cursor_ >= file_pages_)
            cursor_ = 0;
        break;
    case WorkloadPattern::Reverse:
        emit(op, (requests_ - 1 - i % requests_) * unit_);
        break;
    case WorkloadPattern::Random:
        emit(op, rng_.below(file_pages_ - unit_ + 1));
        break;
    case WorkloadPattern::Strided:
        emit(op, cursor_);
        cursor_ += stride_;
        if (cursor_ >= file_pages_)
            cursor_ = 0;
        break;
    case WorkloadPattern::Interleaved:
        emit(op, cursor_ * unit_);
        cursor_ += cpus_;
        if (cursor_ >= requests_)
            cursor_ = cpu_;
        break;
    case WorkloadPattern::Pft:
        // Anonymous memory is faulted by writing: a read fault would only
        // map the shared zero page and allocate nothing.
        op = Operation { OperationKind::AnonFault, 0, cursor_++, 1, true };
        break;
    case WorkloadPattern::TwoStreams: {
        // Turns: stream 0 over [0, cursor2 start), stream 1 over the rest.
        if (i % 2 == 0) {
            emit(op, cursor_);
            op.count = std::min(op.count, half_ - cursor_);
            cursor_ += op.count;
            if (cursor_ >= half_)
                cursor_ = 0;
        } else {
            emit(op, cursor2_);
            cursor2_ += op.count;
            if (cursor2_ >= file_pages_)
                cursor2_ = half_;
        }
        break;
    }
    case WorkloadPattern::Morton:
        if (cpu_ == 0) {
            // Process A: file i mod N, its (i / N)th request.
            file_ = FileId(i % nfiles_);
            emit(op, (i / nfiles_) * unit_);
        } else {
            emit(op, cursor_);
            cursor_ += op.count;
            if (cursor_ >= file_pages_)
                cursor_ = 0;
        }
        break;
    case WorkloadPattern::Mixed:
        // Always two draws, kind then offset, so one seed means one sequence.
        if (rng_.unit() < read_fraction_)
            op = Operation { OperationKind::Read, file_, rng_.below(file_pages_ - request_pages_ + 1), request_pages_,
                false };
        else
            op = Operation { OperationKind::FileFault, file_, rng_.below(file_pages_), 1, false };
        break;
    }
}

} // namespace pcl
