#include "kit/indexkindmessage.h"

#include "kit/structuresource.h"

#include <QCoreApplication>

namespace pcl::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("IndexKindMessage", text);
}

/// The index in words, as the sentence "indexes its pages with a …" wants
/// it, in the order of kIndexKinds.
QString indexName(IndexKind kind)
{
    static constexpr const char* kNames[kIndexKinds.size()] = { "radix tree", "hash table", "skip list" };
    return tr(kNames[static_cast<std::size_t>(kind)]);
}

} // namespace

QString indexKindMessage(const StructureSource& source, IndexKind shown, const QString& structure, const QString& view)
{
    const std::string_view name = index_kind_name(shown);
    const QString kindName = QString::fromLatin1(name.data(), qsizetype(name.size()));
    if (!source.hasRun())
        return tr("No run. Open a scenario whose index is %1 (index kind \"%2\").").arg(structure, kindName);
    const std::optional<IndexKind> kind = source.indexKind();
    if (kind == shown)
        return {};
    // A run without files has no kind: it is named as the index that is
    // neither this one nor the radix tree.
    const IndexKind other = kind.value_or(shown == IndexKind::Hash ? IndexKind::SkipList : IndexKind::Hash);
    return tr("This run indexes its pages with a %1; the %2 view shows runs whose index kind is \"%3\".")
        .arg(indexName(other), view, kindName);
}

} // namespace pcl::ui
