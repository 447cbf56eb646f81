#include "kit/indexkindmessage.h"

#include "kit/structuresource.h"

#include <QCoreApplication>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("IndexKindMessage", text);
}

/// How a run of @kind indexes its pages, as the sentence "This run indexes
/// pages with …" ends.
QString howIndexed(IndexKind kind)
{
    switch (kind) {
    case IndexKind::Radix:
        return tr("a radix tree per file");
    case IndexKind::Hash:
        return tr("one hash table for all files, as Linux 2.4 did");
    case IndexKind::SkipList:
        return tr("a skip list per file");
    }
    return {};
}

/// The structure a view of @kind draws, as "the … is not in use" names it.
QString structure(IndexKind kind)
{
    switch (kind) {
    case IndexKind::Radix:
        return tr("the radix tree");
    case IndexKind::Hash:
        return tr("the page hash table");
    case IndexKind::SkipList:
        return tr("the skip list");
    }
    return {};
}

/// The scenarios that have it, as "Choose a scenario with … to see it" wants.
QString withIndex(IndexKind kind)
{
    switch (kind) {
    case IndexKind::Radix:
        return tr("a radix-tree index");
    case IndexKind::Hash:
        return tr("a hash-table index (2.4's page hash)");
    case IndexKind::SkipList:
        return tr("a skip-list index");
    }
    return {};
}

} // namespace

QString indexNotInUse(std::optional<IndexKind> used, IndexKind shown)
{
    if (used == shown)
        return {};
    // The pft workload faults anonymous memory only: no file, so no index.
    if (!used)
        return tr("This run reads no file, only anonymous memory, so no page is indexed and %1 is not in use. "
                  "Choose a scenario with %2 to see it.")
            .arg(structure(shown), withIndex(shown));
    return tr("This run indexes pages with %1; %2 is not in use. Choose a scenario with %3 to see it.")
        .arg(howIndexed(*used), structure(shown), withIndex(shown));
}

QString indexKindMessage(const StructureSource& source, IndexKind shown)
{
    if (!source.hasRun())
        return tr("No run yet. Choose a scenario with %1 to see it here.").arg(withIndex(shown));
    return indexNotInUse(source.indexKind(), shown);
}

} // namespace pcl::ui
