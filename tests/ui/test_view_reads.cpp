// What the GUI reads of a run, checked in its sources: no ui file includes
// the header of a class behind an index (those that implement PageIndex) or
// casts to one of them, so the views read core's read-only interface (const
// PageIndex, IndexSnapshot, HashChains, through Debugfs) and nothing else;
// and no ui file but the Simulation itself, which turns the run, reaches
// the Engine. docs/architecture.md says so in its ui section. (The patterns
// are plain string literals: moc cannot read a raw string holding quotes.)
#include "ui_test_registry.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QTextStream>

#include <functional>

#ifndef PCL_SOURCE_DIR
#error "PCL_SOURCE_DIR must name the source tree"
#endif

namespace {

const QDir kTree(QStringLiteral(PCL_SOURCE_DIR));

/// Every .h and .cpp below the tree's folder @folder.
QStringList sourcesIn(const QString& folder)
{
    QStringList out;
    QDirIterator it(kTree.filePath(folder), { QStringLiteral("*.h"), QStringLiteral("*.cpp") }, QDir::Files,
        QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

QStringList linesOf(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    return QTextStream(&f).readAll().split(QLatin1Char('\n'));
}

/// The headers of core/index that define a class implementing PageIndex
/// (as "index/<name>.h"), and every class they define.
struct ConcreteIndexes {
    QSet<QString> headers;
    QSet<QString> classes;
};

ConcreteIndexes concreteIndexes()
{
    ConcreteIndexes out;
    const QRegularExpression implementer(QStringLiteral("class\\s+\\w+\\s+(final\\s+)?:\\s*public\\s+PageIndex\\b"));
    const QRegularExpression classAt(QStringLiteral("^class\\s+(\\w+)\\b[^;]*$"));
    for (const QString& path : sourcesIn(QStringLiteral("core/index"))) {
        const QStringList lines = linesOf(path);
        if (!path.endsWith(QLatin1String(".h")) || !lines.join(QLatin1Char('\n')).contains(implementer))
            continue;
        out.headers.insert(QStringLiteral("index/") + QFileInfo(path).fileName());
        for (const QString& line : lines)
            if (const auto m = classAt.match(line); m.hasMatch())
                out.classes.insert(m.captured(1));
    }
    return out;
}

/// "ui/…:line: text" for each line of a ui source that @bad finds
/// something in; files @skip names (relative to the tree) are not read.
QStringList uiLinesWhere(const std::function<bool(const QString&)>& bad, const QSet<QString>& skip = {})
{
    QStringList found;
    for (const QString& path : sourcesIn(QStringLiteral("ui"))) {
        const QString name = kTree.relativeFilePath(path);
        if (skip.contains(name))
            continue;
        const QStringList lines = linesOf(path);
        for (int n = 0; n < lines.size(); ++n)
            if (bad(lines[n]))
                found << QStringLiteral("%1:%2: %3").arg(name).arg(n + 1).arg(lines[n].trimmed());
    }
    return found;
}

} // namespace

class TestViewReads : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void noUiFileKnowsTheClassBehindAnIndex()
    {
        const ConcreteIndexes concrete = concreteIndexes();
        // The three families: a radix tree, the page hash (its table and each
        // file's mapping) and a skip list.
        QVERIFY(concrete.headers.contains(QStringLiteral("index/radix_tree.h")));
        QVERIFY(concrete.headers.contains(QStringLiteral("index/hash_index.h")));
        QVERIFY(concrete.headers.contains(QStringLiteral("index/skip_list.h")));
        QVERIFY(concrete.classes.contains(QStringLiteral("HashIndex")));
        QVERIFY(concrete.classes.contains(QStringLiteral("RadixTree")));
        const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s*\"([^\"]+)\""));
        const QRegularExpression cast(QStringLiteral("dynamic_cast\\s*<\\s*(const\\s+)?(pcl::)?(\\w+)"));
        const QStringList found = uiLinesWhere([&](const QString& line) {
            if (const auto m = include.match(line); m.hasMatch() && concrete.headers.contains(m.captured(1)))
                return true;
            for (auto it = cast.globalMatch(line); it.hasNext();)
                if (concrete.classes.contains(it.next().captured(3)))
                    return true;
            return false;
        });
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }

    void onlyTheSimulationReachesTheEngine()
    {
        const QRegularExpression engine(
            QStringLiteral("#\\s*include\\s*\"sim/engine\\.h\"|[.>]engine\\(\\)|\\bEngine\\s*[*&]"));
        const QStringList found = uiLinesWhere([&](const QString& line) { return line.contains(engine); },
            { QStringLiteral("ui/run/simulation.h"), QStringLiteral("ui/run/simulation.cpp") });
        QVERIFY2(found.isEmpty(), qPrintable(found.join(QLatin1Char('\n'))));
    }
};

PCL_UI_TEST(TestViewReads)
#include "test_view_reads.moc"
