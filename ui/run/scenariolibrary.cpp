#include "run/scenariolibrary.h"

#include "kit/resources.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>

#include <cstdio>

namespace pcl::ui {

namespace {

const QString kPresetDir = QStringLiteral(":/pagecache-lab/scenarios");
const QString kRecentKey = QStringLiteral("Scenarios/recent");

Scenario parseFile(const QString& path, const QString& shownName)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw ScenarioError("", shownName.toStdString() + ": " + file.errorString().toStdString());
    const QByteArray text = file.readAll();
    // A trace the scenario names is found next to it, in the bundled
    // resources too (the reader below opens ":/" paths).
    const std::string base = QFileInfo(path).absolutePath().toStdString();
    return parse_scenario(std::string_view(text.constData(), std::size_t(text.size())), shownName.toStdString(), &base);
}

/// Reads files a scenario names through QFile, so bundled traces resolve.
std::string readScenarioFile(const std::string& path)
{
    const QString cleaned = QDir::cleanPath(QString::fromStdString(path));
    QFile file(cleaned);
    if (!file.open(QIODevice::ReadOnly))
        throw std::runtime_error(cleaned.toStdString() + ": " + file.errorString().toStdString());
    const QByteArray data = file.readAll();
    return std::string(data.constData(), std::size_t(data.size()));
}

const bool kReaderInstalled = [] {
    set_scenario_file_reader(readScenarioFile);
    return true;
}();

} // namespace

QList<ScenarioEntry> ScenarioLibrary::presets()
{
    registerResources();
    QList<ScenarioEntry> out;
    const QDir dir(kPresetDir);
    for (const QString& name : dir.entryList({ QStringLiteral("*.json") }, QDir::Files, QDir::Name)) {
        const QString path = dir.filePath(name);
        try {
            out.append({ QFileInfo(name).completeBaseName(), path, parseFile(path, name) });
        } catch (const std::exception& e) {
            std::fprintf(stderr, "pagecache-lab: bundled scenario %s: %s\n", qPrintable(name), e.what());
        }
    }
    return out;
}

ScenarioEntry ScenarioLibrary::load(const QString& presetOrPath)
{
    registerResources();
    QString preset = presetOrPath;
    if (preset.endsWith(QLatin1String(".json")))
        preset.chop(5);
    const QString resource = kPresetDir + QLatin1Char('/') + preset + QStringLiteral(".json");
    if (!presetOrPath.contains(QLatin1Char('/')) && QFile::exists(resource) && !QFile::exists(presetOrPath))
        return { preset, resource, parseFile(resource, preset + QStringLiteral(".json")) };
    if (!QFile::exists(presetOrPath)) {
        QStringList names;
        for (const ScenarioEntry& e : presets())
            names.append(e.id);
        throw ScenarioError("",
            presetOrPath.toStdString() + ": no such file, and not a bundled scenario (bundled: "
                + names.join(QStringLiteral(", ")).toStdString() + ")");
    }
    return { QFileInfo(presetOrPath).absoluteFilePath(), presetOrPath, parseFile(presetOrPath, presetOrPath) };
}

void ScenarioLibrary::save(const QString& path, const Scenario& scenario)
{
    save_scenario(path.toStdString(), scenario);
}

QStringList ScenarioLibrary::recentFiles()
{
    QStringList out;
    for (const QString& path : QSettings().value(kRecentKey).toStringList())
        if (QFileInfo::exists(path) && !out.contains(path))
            out.append(path);
    return out;
}

void ScenarioLibrary::addRecentFile(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = recentFiles();
    list.removeAll(absolute);
    list.prepend(absolute);
    while (list.size() > kMaxRecent)
        list.removeLast();
    QSettings().setValue(kRecentKey, list);
}

} // namespace pcl::ui
