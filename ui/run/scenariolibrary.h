// Where scenarios come from: the bundled presets (compiled into the
// executable from resources/scenarios/), files the user opened, and the
// list of recent files.
#pragma once

#include "sim/scenario.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace pcl::ui {

struct ScenarioEntry {
    QString id;        ///< preset name ("2002-global-hash-lock") or the file's path
    QString path;      ///< where it was read from (a ":/" resource for a preset)
    Scenario scenario; ///< as read
};

class ScenarioLibrary {
public:
    /// The bundled presets, ordered by name (year first). A preset that does
    /// not parse is a build defect: it is left out and reported on stderr.
    static QList<ScenarioEntry> presets();
    /// A preset by name (with or without ".json"), or a file by path.
    /// Throws ScenarioError naming the file and what is wrong.
    static ScenarioEntry load(const QString& presetOrPath);
    /// Writes @scenario to @path (atomically). Throws std::runtime_error.
    static void save(const QString& path, const Scenario& scenario);

    /// Recent files, newest first, those that still exist (QSettings).
    static QStringList recentFiles();
    /// Puts @path at the head of the recent files (at most kMaxRecent).
    static void addRecentFile(const QString& path);
    static constexpr int kMaxRecent = 8;
};

} // namespace pcl::ui
