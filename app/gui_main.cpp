// pagecache-lab: the desktop application.
//
// Without a display (no DISPLAY, no WAYLAND_DISPLAY, no QT_QPA_PLATFORM) a
// Qt GUI cannot start, so instead of failing it runs the scenario headless
// (the default one, or --scenario's) and prints what
// `pagecache-lab-cli run` would. --screenshot renders offscreen in that
// case, so documentation screenshots need no X server.
#include "lesson/experiment.h"
#include "lesson/lesson_library.h"
#include "lessons/lessonpanel.h"
#include "run/scenariolibrary.h"
#include "shell/eventloopwatch.h"
#include "shell/mainwindow.h"
#include "shell/runtimedir.h"
#include "sim/run_summary.h"
#include "sim/runner.h"
#include "sim/scenario.h"
#include "views/viewbenchmark.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QPixmap>
#include <QSaveFile>
#include <QTimer>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

namespace {

// QTimer counts in int milliseconds: about 24 days. A million seconds is
// far beyond any scripted run and well inside that.
constexpr double kMaxRunForSeconds = 1e6;

/// The scenario a bare `pagecache-lab` runs without a display: the global
/// page-hash lock of the radix-tree pagecache thread (2002), the product's
/// first demonstration.
const QString kDefaultScenario = QStringLiteral("2002-global-hash-lock");

struct Options {
    QString scenario;               ///< preset name or file to open and play, empty for the gallery
    QString lesson;                 ///< lesson name or file to open, empty for none
    int step = 1;                   ///< --step: the lesson's step to open at, from 1
    QStringList overrides;          ///< --set path=value, in order
    QString screenshot;             ///< PNG to write, empty for none
    QString view;                   ///< centre view to bring to the front, empty for the default
    bool benchmarkViews = false;    ///< time the structure views' frames and exit
    QString csv;                    ///< --csv: also write the benchmark (or the responsiveness intervals) as CSV
    bool responsiveness = false;    ///< report event-loop stalls, throughput and memory on exit
    std::optional<double> runFor;   ///< seconds before the screenshot and exit; none: run until closed
    std::optional<double> rewindTo; ///< modelled seconds to take the run back to after --run-for
    bool measure = false;           ///< --measure: measure the lesson's claims, then the screenshot
};

bool displayAvailable()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
        || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

void setApplicationMetadata()
{
    QCoreApplication::setOrganizationName(QStringLiteral("pagecache-lab"));
    QCoreApplication::setApplicationName(QStringLiteral("pagecache-lab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(PCL_VERSION));
}

/// Parses the command line of @app. Exits for --help, --version and unknown
/// options (QCommandLineParser::process); returns nullopt, after saying why on
/// stderr, for a bad option value.
std::optional<Options> parseOptions(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Page Cache Lab: a simulated Linux page cache on real threads, shown live.\n"
                       "Without a display it runs the scenario (by default %1) headless and prints its\n"
                       "summary, as `pagecache-lab-cli run` does.")
            .arg(kDefaultScenario));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the main window as a PNG to <file> and exit (after --run-for seconds, if given). "
                       "Renders offscreen when there is no display."),
        QStringLiteral("file"));
    const QCommandLineOption runFor(QStringLiteral("run-for"),
        QStringLiteral("Quit after <seconds> (a decimal number). The window's size and position are then "
                       "neither restored nor saved."),
        QStringLiteral("seconds"));
    const QCommandLineOption rewindTo(QStringLiteral("rewind-to"),
        QStringLiteral("With --run-for: then take a run on a modelled machine back to <seconds> of its modelled "
                       "time (run again, the same, to there), before the screenshot."),
        QStringLiteral("seconds"));
    const QCommandLineOption scenario(QStringLiteral("scenario"),
        QStringLiteral("Open <file> (a scenario file) or <preset> (a bundled scenario, e.g. %1) and play it.")
            .arg(kDefaultScenario),
        QStringLiteral("file|preset"));
    const QCommandLineOption lesson(QStringLiteral("lesson"),
        QStringLiteral("Open <name> (a bundled lesson, e.g. 2002-one-global-hash-lock) or <file> (a lesson file) at "
                       "its first step. Without a display, measure its claims in the quick form and print the "
                       "verdicts instead."),
        QStringLiteral("name|file"));
    const QCommandLineOption step(QStringLiteral("step"),
        QStringLiteral("With --lesson: open at step <n> (from 1) and play it."), QStringLiteral("n"));
    const QCommandLineOption responsiveness(QStringLiteral("report-responsiveness"),
        QStringLiteral("Show every dock (the log beside the lock table, the parameters under the charts) and on "
                       "exit print the longest time the window's event loop was busy (a stall a user would feel), "
                       "the process's memory at start, at most and at the end, and per minute the run's "
                       "throughput (operations per second, from the engine's counter), the events the CPUs "
                       "recorded per second, the memory and the GUI thread's share of a CPU, with the ratio of "
                       "the last minute's throughput to the first's and the same ratio of a line fitted "
                       "through every minute, with its 95% interval."));
    const QCommandLineOption set(QStringLiteral("set"),
        QStringLiteral("Change a field of the scenario (repeatable), as pagecache-lab-cli run does: "
                       "--set workload.cpus=8 --set pacing.ops_per_second=100."),
        QStringLiteral("path=value"));
    const QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Bring <name> to the front of the centre: cpus (the timeline), radix, hash, skiplist, "
                       "readahead or pagetable."),
        QStringLiteral("name"));
    const QCommandLineOption benchmark(QStringLiteral("benchmark-views"),
        QStringLiteral("Time the structure views (radix, hash, skiplist, readahead, pagetable) at 1K, 100K and 1M "
                       "pages: a live refresh and a paint per frame, offscreen at 1280x720; print a table and exit."));
    const QCommandLineOption csv(QStringLiteral("csv"),
        QStringLiteral("With --benchmark-views or --report-responsiveness: also write the results (the intervals) "
                       "as CSV to <file>."),
        QStringLiteral("file"));
    parser.addOption(scenario);
    parser.addOption(lesson);
    parser.addOption(step);
    parser.addOption(set);
    parser.addOption(view);
    parser.addOption(benchmark);
    parser.addOption(csv);
    parser.addOption(responsiveness);
    parser.addOption(screenshot);
    parser.addOption(runFor);
    parser.addOption(rewindTo);
    const QCommandLineOption measure(QStringLiteral("measure"),
        QStringLiteral("With --lesson: measure its claims in the quick form, as Measure the claims does, and with "
                       "--screenshot save the window once the verdicts (and the thread's tables beside ours) are in."));
    parser.addOption(measure);
    parser.process(app);

    Options options;
    options.scenario = parser.value(scenario);
    options.overrides = parser.values(set);
    if (!options.overrides.isEmpty() && options.scenario.isEmpty() && parser.isSet(set)) {
        std::fprintf(stderr, "pagecache-lab: --set changes a scenario: give one with --scenario\n");
        return std::nullopt;
    }
    options.lesson = parser.value(lesson);
    if (parser.isSet(lesson) && !options.scenario.isEmpty()) {
        std::fprintf(stderr, "pagecache-lab: --lesson opens its own runs: give --scenario or --lesson, not both\n");
        return std::nullopt;
    }
    if (parser.isSet(step)) {
        bool ok = false;
        options.step = parser.value(step).toInt(&ok);
        if (!ok || options.step < 1 || options.lesson.isEmpty()) {
            std::fprintf(stderr, "pagecache-lab: --step wants a step number from 1, with --lesson; not '%s'\n",
                qPrintable(parser.value(step)));
            return std::nullopt;
        }
    }
    options.view = parser.value(view);
    if (parser.isSet(view) && options.scenario.isEmpty()) {
        std::fprintf(stderr, "pagecache-lab: --view shows a run: give one with --scenario\n");
        return std::nullopt;
    }
    options.benchmarkViews = parser.isSet(benchmark);
    options.csv = parser.value(csv);
    options.responsiveness = parser.isSet(responsiveness);
    if (parser.isSet(csv) && !options.benchmarkViews && !options.responsiveness) {
        std::fprintf(stderr, "pagecache-lab: --csv goes with --benchmark-views or --report-responsiveness\n");
        return std::nullopt;
    }
    options.screenshot = parser.value(screenshot);
    if (parser.isSet(screenshot) && options.screenshot.isEmpty()) {
        std::fprintf(stderr, "pagecache-lab: --screenshot needs a file name\n");
        return std::nullopt;
    }
    if (parser.isSet(runFor)) {
        bool ok = false;
        const double seconds = parser.value(runFor).toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > kMaxRunForSeconds) {
            std::fprintf(stderr, "pagecache-lab: --run-for wants a number of seconds from 0 to %.0f, not '%s'\n",
                kMaxRunForSeconds, qPrintable(parser.value(runFor)));
            return std::nullopt;
        }
        options.runFor = seconds;
    }
    if (parser.isSet(rewindTo)) {
        bool ok = false;
        const double seconds = parser.value(rewindTo).toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > kMaxRunForSeconds || !options.runFor) {
            std::fprintf(stderr,
                "pagecache-lab: --rewind-to wants --run-for and a number of seconds from 0 to %.0f, not '%s'\n",
                kMaxRunForSeconds, qPrintable(parser.value(rewindTo)));
            return std::nullopt;
        }
        options.rewindTo = seconds;
    }
    options.measure = parser.isSet(measure);
    if (options.measure && (options.lesson.isEmpty() || options.runFor)) {
        std::fprintf(stderr, "pagecache-lab: --measure measures a lesson's claims: give --lesson, and no --run-for\n");
        return std::nullopt;
    }
    return options;
}

/// Grabs @window into @path as PNG, replacing the file only once the image
/// is complete. Returns false after saying why on stderr.
bool saveScreenshot(QWidget& window, const QString& path)
{
    const QPixmap pixmap = window.grab();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "pagecache-lab: cannot write screenshot '%s': %s\n", qPrintable(path),
            qPrintable(file.errorString()));
        return false;
    }
    return true;
}

/// Reads @scenario and applies @overrides; nullopt after saying why on stderr.
std::optional<pcl::ui::ScenarioEntry> loadScenario(const QString& scenario, const QStringList& overrides)
{
    try {
        pcl::ui::ScenarioEntry entry = pcl::ui::ScenarioLibrary::load(scenario);
        if (!overrides.isEmpty()) {
            pcl::json::Value doc = pcl::scenario_to_json(entry.scenario);
            for (const QString& o : overrides)
                pcl::apply_override(doc, o.toStdString());
            entry.scenario = pcl::scenario_from_json(doc);
        }
        return entry;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pagecache-lab: %s\n", e.what());
        return std::nullopt;
    }
}

/// No display: runs @scenario to its end and prints the summary.
int runHeadless(const QString& scenario, const QStringList& overrides, int argc, char** argv)
{
    const QCoreApplication app(argc, argv);
    const std::optional<pcl::ui::ScenarioEntry> loaded = loadScenario(scenario, overrides);
    if (!loaded)
        return 2;
    const pcl::ui::ScenarioEntry& entry = *loaded;
    std::cout << "No display found: running the scenario " << entry.id.toStdString()
              << " headless instead (as pagecache-lab-cli run would).\n"
              << std::endl;
    const pcl::RunResult result = pcl::run_scenario(entry.scenario, {});
    pcl::print_run_summary(std::cout, result, entry.path.toStdString());
    return result.state == "failed" ? 1 : 0;
}

/// No display, --lesson: measures the lesson's claims in the quick form and
/// prints the verdicts, as `pagecache-lab-cli experiment NAME --quick` does.
int measureHeadless(const QString& lesson, int argc, char** argv)
{
    const QCoreApplication app(argc, argv);
    try {
        const pcl::Lesson l = pcl::find_lesson(lesson.toStdString());
        pcl::check_lesson_scenarios(l, pcl::bundled_scenario_text);
        std::cout << "No display found: measuring the lesson " << l.name
                  << " in its quick form instead (as pagecache-lab-cli experiment would).\n"
                  << std::endl;
        pcl::ExperimentOptions options;
        options.quick = true;
        pcl::print_verdicts(std::cout, pcl::run_experiment(l, pcl::bundled_scenario_text, options));
        return 0;
    } catch (const pcl::LessonError& e) {
        std::fprintf(stderr, "pagecache-lab: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "pagecache-lab: %s\n", e.what());
        return 1;
    }
}

/// Writes @text to @path, replacing the file only once it is complete.
/// Returns false after saying why on stderr.
bool writeTextFile(const QString& path, const QString& text)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        std::fprintf(
            stderr, "pagecache-lab: cannot write '%s': %s\n", qPrintable(path), qPrintable(file.errorString()));
        return false;
    }
    return true;
}

/// --benchmark-views: the table docs/benchmarks.md quotes.
int runViewBenchmark(const QString& csvPath)
{
    const std::vector<pcl::ui::ViewFrameTime> rows = pcl::ui::benchmarkViews({ 1000, 100000, 1000000 }, 15);
    std::printf("%-10s %9s %9s %11s %11s %10s %10s %7s\n", "view", "pages", "load ms", "refresh ms", "paint ms",
        "paint max", "frame ms", "fps");
    QString csv = QStringLiteral("view,pages,load_ms,refresh_ms,paint_median_ms,paint_max_ms,frame_ms,fps\n");
    for (const pcl::ui::ViewFrameTime& r : rows) {
        const double frame = r.refresh_ms + r.paint_median_ms;
        const double fps = frame > 0 ? 1000.0 / frame : 0;
        std::printf("%-10s %9llu %9.1f %11.2f %11.2f %10.2f %10.2f %7.0f\n", qPrintable(r.view),
            static_cast<unsigned long long>(r.pages), r.load_ms, r.refresh_ms, r.paint_median_ms, r.paint_max_ms, frame,
            fps);
        csv += QStringLiteral("%1,%2,%3,%4,%5,%6,%7,%8\n")
                   .arg(r.view)
                   .arg(r.pages)
                   .arg(r.load_ms, 0, 'f', 2)
                   .arg(r.refresh_ms, 0, 'f', 3)
                   .arg(r.paint_median_ms, 0, 'f', 3)
                   .arg(r.paint_max_ms, 0, 'f', 3)
                   .arg(frame, 0, 'f', 3)
                   .arg(fps, 0, 'f', 1);
    }
    return csvPath.isEmpty() || writeTextFile(csvPath, csv) ? 0 : 1;
}

/// --report-responsiveness: every dock of the run page on screen, none
/// hidden behind another's tab, so that every view draws what it is fed.
void showEveryDock(pcl::ui::MainWindow& window)
{
    auto dock = [&window](const char* name) { return window.findChild<QDockWidget*>(QLatin1String(name)); };
    QDockWidget* locks = dock("locksDock");
    QDockWidget* log = dock("logDock");
    QDockWidget* charts = dock("chartsDock");
    QDockWidget* parameters = dock("parametersDock");
    // A dock added again is laid out beside the others of its area, no
    // longer a tab of the group it was in (splitDockWidget would keep it
    // there).
    if (locks && log && locks->isVisible()) {
        window.removeDockWidget(log);
        window.addDockWidget(Qt::BottomDockWidgetArea, log, Qt::Horizontal);
        log->show();
    }
    if (charts && parameters && charts->isVisible()) {
        window.removeDockWidget(parameters);
        window.addDockWidget(Qt::RightDockWidgetArea, parameters, Qt::Vertical);
        parameters->show();
    }
}

} // namespace

int main(int argc, char** argv)
{
    setApplicationMetadata();
    pcl::ui::prepareRuntimeDirectory();

    if (!displayAvailable()) {
        // Parse first (QCoreApplication needs no display), so that --help,
        // --version and a mistyped option behave the same with or without one.
        std::optional<Options> options;
        {
            const QCoreApplication app(argc, argv);
            options = parseOptions(app);
        }
        if (!options)
            return 2;
        if (options->screenshot.isEmpty() && !options->benchmarkViews && !options->lesson.isEmpty())
            return measureHeadless(options->lesson, argc, argv);
        if (options->screenshot.isEmpty() && !options->benchmarkViews)
            return runHeadless(
                options->scenario.isEmpty() ? kDefaultScenario : options->scenario, options->overrides, argc, argv);
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }

    QApplication app(argc, argv);
    QGuiApplication::setApplicationDisplayName(QStringLiteral("Page Cache Lab"));
    QGuiApplication::setDesktopFileName(QStringLiteral("pagecache-lab"));
    const std::optional<Options> options = parseOptions(app);
    if (!options)
        return 2;
    if (options->benchmarkViews)
        return runViewBenchmark(options->csv);

    pcl::ui::MainWindow window;
    QApplication::setWindowIcon(window.windowIcon());
    const bool scripted = options->runFor || !options->screenshot.isEmpty();
    window.setRememberGeometry(!scripted);
    if (!scripted)
        window.restoreSettings();
    if (!options->scenario.isEmpty()) {
        const std::optional<pcl::ui::ScenarioEntry> entry = loadScenario(options->scenario, options->overrides);
        if (!entry)
            return 2;
        QString error;
        if (!window.openScenario(*entry, &error)) {
            std::fprintf(stderr, "pagecache-lab: %s\n", qPrintable(error));
            return 2;
        }
        if (!options->view.isEmpty() && !window.runPage()->showView(options->view)) {
            std::fprintf(stderr, "pagecache-lab: --view '%s' is not one of: %s\n", qPrintable(options->view),
                qPrintable(window.runPage()->viewNames().join(QStringLiteral(", "))));
            return 2;
        }
        window.simulation().play();
    }
    if (!options->lesson.isEmpty()) {
        QString error;
        if (!window.openLesson(options->lesson, &error)) {
            std::fprintf(stderr, "pagecache-lab: %s\n", qPrintable(error));
            return 2;
        }
        pcl::ui::LessonPanel& panel = *window.lessonPanel();
        if (options->step > int(panel.lesson().steps.size())) {
            std::fprintf(stderr, "pagecache-lab: --step %d: the lesson has %zu steps\n", options->step,
                panel.lesson().steps.size());
            return 2;
        }
        panel.goToStep(options->step - 1);
        window.simulation().play();
    }
    window.show();
    std::unique_ptr<pcl::ui::EventLoopWatch> watch;
    if (options->responsiveness) {
        showEveryDock(window);
        watch = std::make_unique<pcl::ui::EventLoopWatch>();
        // The engine's own count of operations done, summed over its CPUs.
        watch->setOperationsCounter([&window]() -> std::uint64_t {
            const pcl::Engine* engine = window.simulation().engine();
            return engine ? engine->operations() : 0;
        });
        watch->setEventsCounter([&window]() -> std::uint64_t { return window.simulation().eventsRecorded(); });
    }

    if (options->measure) {
        // The screenshot (and the exit) once the verdicts are in.
        pcl::ui::LessonPanel& panel = *window.lessonPanel();
        QObject::connect(&panel, &pcl::ui::LessonPanel::measured, &window,
            [&window, path = options->screenshot](const QString& error) {
                if (!error.isEmpty())
                    std::fprintf(stderr, "pagecache-lab: the measurement failed: %s\n", qPrintable(error));
                if (path.isEmpty() && error.isEmpty())
                    return;
                QElapsedTimer settle;
                settle.start();
                while (settle.elapsed() < 800)
                    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
                const bool ok = error.isEmpty() && (path.isEmpty() || saveScreenshot(window, path));
                QCoreApplication::exit(ok ? 0 : 1);
            });
        panel.measure();
    } else if (scripted) {
        const int ms = int(std::lround(options->runFor.value_or(0.0) * 1000.0));
        QTimer::singleShot(ms, &window, [&window, &watch, path = options->screenshot, back = options->rewindTo] {
            // The run's last interval ends here, not after the screenshot's
            // pixmap has been drawn and counted in the memory.
            if (watch)
                watch->finish();
            if (back) {
                pcl::ui::Simulation& sim = window.simulation();
                if (!sim.canRewind()) {
                    std::fprintf(stderr,
                        "pagecache-lab: --rewind-to: this run is on this computer's threads, "
                        "which cannot be run again the same; choose a modelled machine\n");
                    QCoreApplication::exit(1);
                    return;
                }
                const double from = double(sim.runningNs()) / 1e9;
                sim.rewindTo(std::uint64_t(*back * 1e9));
                if (const std::optional<std::uint64_t> checkpoint = sim.lastRewindFromNs()) {
                    const pcl::ui::Simulation::Restored& r = sim.lastRestore();
                    std::fprintf(stderr,
                        "pagecache-lab: taken back from %.6g to %.6g modelled s in %.2f s (from the checkpoint at "
                        "%.6g s, one of %zu, of %.0f MB of the machine's memory: restored in %.2f s, %zu pages "
                        "written back and %zu given back)\n",
                        from, double(sim.runningNs()) / 1e9, sim.lastRewindSeconds(), double(*checkpoint) / 1e9,
                        sim.checkpoints().size(), double(r.bytes) / 1e6, r.seconds, r.pagesWritten, r.pagesGivenBack);
                } else
                    std::fprintf(stderr,
                        "pagecache-lab: taken back from %.6g to %.6g modelled s in %.2f s (run again from its start)\n",
                        from, double(sim.runningNs()) / 1e9, sim.lastRewindSeconds());
                // The views' own transitions (a tree fading in) end before the picture.
                QElapsedTimer settle;
                settle.start();
                while (settle.elapsed() < 800)
                    QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
            }
            const bool ok = path.isEmpty() || saveScreenshot(window, path);
            QCoreApplication::exit(ok ? 0 : 1);
        });
    }
    int status = QApplication::exec();
    if (watch) {
        watch->finish();
        std::printf("%s\n", qPrintable(watch->report()));
        if (!options->csv.isEmpty() && !writeTextFile(options->csv, watch->intervalsCsv()))
            status = status ? status : 1;
    }
    return status;
}
