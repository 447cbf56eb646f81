// The main window: title, menus and actions, the About dialog, geometry kept
// across runs, and a window that actually draws something.
#include "compare/comparewindow.h"
#include "index/hash_index.h"
#include "index/page_index.h"
#include "lesson/lesson_library.h"
#include "run/runtoolbar.h"
#include "run/scenariolibrary.h"
#include "run/simulation.h"
#include "shell/aboutdialog.h"
#include "shell/mainwindow.h"
#include "shell/welcomecard.h"
#include "shell/welcomepage.h"
#include "sim/debugfs.h"
#include "ui_test_registry.h"
#include "views/hash/hashview.h"
#include "views/radix/radixtreeview.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>

#include <unordered_set>

using pcl::ui::AboutDialog;
using pcl::ui::MainWindow;
using pcl::ui::Simulation;

namespace {

QStringList labelTexts(const QWidget& widget)
{
    QStringList texts;
    for (const QLabel* label : widget.findChildren<QLabel*>())
        texts.append(label->text());
    return texts;
}

/// A bundled scenario cut to @ops operations per CPU, so that it ends soon.
pcl::ui::ScenarioEntry shortRun(const char* preset, std::uint64_t ops)
{
    pcl::ui::ScenarioEntry entry = pcl::ui::ScenarioLibrary::load(QLatin1String(preset));
    entry.scenario.engine.workload.operations_per_cpu = ops;
    return entry;
}

/// Plays @sim's run until it is no longer running.
void playToTheEnd(Simulation& sim)
{
    sim.play();
    QTRY_VERIFY_WITH_TIMEOUT(sim.state() != Simulation::State::Running, 60000);
}

} // namespace

class TestMainWindow : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Settings go to a test location, never the user's configuration.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("pagecache-lab-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("test_mainwindow"));
        QSettings().clear();
    }

    void cleanupTestCase() { QSettings().clear(); }

    void title()
    {
        MainWindow window;
        QCOMPARE(window.windowTitle(), QStringLiteral("Page Cache Lab"));
        QVERIFY(!window.windowIcon().isNull());
    }

    void menusAndActions()
    {
        MainWindow window;
        const auto* file = window.findChild<QMenu*>(QStringLiteral("fileMenu"));
        const auto* help = window.findChild<QMenu*>(QStringLiteral("helpMenu"));
        QVERIFY(file);
        QVERIFY(help);
        const auto* run = window.findChild<QMenu*>(QStringLiteral("runMenu"));
        const auto* view = window.findChild<QMenu*>(QStringLiteral("viewMenu"));
        QVERIFY(run);
        QVERIFY(view);
        QCOMPARE(window.menuBar()->actions().size(), 4);
        QCOMPARE(window.menuBar()->actions().at(0), file->menuAction());
        QCOMPARE(window.menuBar()->actions().at(1), run->menuAction());
        QCOMPARE(window.menuBar()->actions().at(2), view->menuAction());
        QCOMPARE(window.menuBar()->actions().at(3), help->menuAction());
        QVERIFY(file->actions().contains(window.openAction()));
        QVERIFY(file->actions().contains(window.saveAction()));
        QCOMPARE(window.openAction()->shortcut(), QKeySequence(QKeySequence::Open));

        QVERIFY(window.quitAction());
        QVERIFY(file->actions().contains(window.quitAction()));
        QCOMPARE(window.quitAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
        QVERIFY(window.aboutAction());
        QVERIFY(help->actions().contains(window.aboutAction()));

        // File > Export is the run page's list, the page that holds the
        // results: its actions in its order, the groups apart.
        const auto* exports = window.findChild<QMenu*>(QStringLiteral("exportMenu"));
        QVERIFY(exports);
        QCOMPARE(exports->actions(), window.runPage()->exportActions());
        QStringList texts;
        for (const QAction* a : exports->actions())
            texts << (a->isSeparator() ? QStringLiteral("-") : a->text());
        QCOMPARE(texts,
            QStringList({ QStringLiteral("Report (&HTML)…"), QStringLiteral("Report (&PDF)…"), QStringLiteral("-"),
                QStringLiteral("Run &result (JSON)…"), QStringLiteral("&Time series (CSV)…"),
                QStringLiteral("&Lock table (CSV)…"), QStringLiteral("-"),
                QStringLiteral("T&race for Perfetto (JSON)…"), QStringLiteral("-"), QStringLiteral("&Scenario…") }));
    }

    void quitClosesTheWindow()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.quitAction()->trigger();
        QVERIFY(!window.isVisible());
    }

    void ctrlQQuits()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTest::keyClick(&window, Qt::Key_Q, Qt::ControlModifier);
        QTRY_VERIFY(!window.isVisible());
    }

    void aboutNamesProductVersionAndLibraries()
    {
        MainWindow window;
        window.show();
        QVERIFY(!window.aboutDialog());
        window.aboutAction()->trigger();
        AboutDialog* about = window.aboutDialog();
        QVERIFY(about);
        QVERIFY(about->isVisible());
        QVERIFY(about->windowTitle().contains(QStringLiteral("Page Cache Lab")));

        const QString text = labelTexts(*about).join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral(PCL_VERSION)), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Page Cache Lab")));
        for (const char* library : { "Qt ", "oneTBB ", "liburcu " })
            QVERIFY2(text.contains(QLatin1String(library)), library);
        QVERIFY2(text.contains(QStringLiteral("GNU General Public License, version 3 or later")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("Qt Charts GPL 3")));

        about->reject();
        QVERIFY(!about->isVisible());
        // Shown again, it is the same dialog.
        window.aboutAction()->trigger();
        QCOMPARE(window.aboutDialog(), about);
        about->reject();
        window.setRememberGeometry(false);
    }

    void galleryShowsEveryBundledScenarioWithRun()
    {
        MainWindow window;
        QVERIFY(window.welcomePage());
        const auto presets = pcl::ui::ScenarioLibrary::presets();
        QVERIFY(presets.size() >= 8);
        const auto cards = window.welcomePage()->cards();
        QCOMPARE(cards.size(), presets.size());
        for (int i = 0; i < cards.size(); ++i) {
            const pcl::ui::WelcomeCard* card = cards[i];
            QCOMPARE(card->title(), QString::fromStdString(presets[i].scenario.title));
            QVERIFY(card->text().size() > 40);
            QCOMPARE(card->buttons().size(), 1);
            QCOMPARE(card->buttons().at(0)->text(), QStringLiteral("Run"));
            // Words for a student: what they will see and how long it
            // runs, never a file name, a field path or a random seed.
            QVERIFY2(card->note().startsWith(QStringLiteral("Runs ")), qPrintable(card->title()));
            for (const char* word : { ".json", "seed", "workload.", "pacing.", ".py", ".strace", "resources/" })
                QVERIFY2(!card->text().contains(QLatin1String(word)) && !card->note().contains(QLatin1String(word)),
                    qPrintable(card->title() + QStringLiteral(": ") + QLatin1String(word)));
        }
        // The lessons come grouped by thread, each group headed by its
        // citation and a sentence on what the thread was about.
        const auto heads = window.welcomePage()->findChildren<QLabel*>(QStringLiteral("threadHead"));
        QVERIFY(!heads.isEmpty());
        for (const QLabel* head : heads)
            QVERIFY2(
                head->text().contains(QStringLiteral("<br>")) && head->text().size() > 120, qPrintable(head->text()));
        QVERIFY(!window.showingRun());
        // Run opens the scenario, ready to play.
        cards[0]->buttons().at(0)->click();
        QVERIFY(window.showingRun());
        QCOMPARE(window.simulation().state(), pcl::ui::Simulation::State::Ready);
        QCOMPARE(window.simulation().scenario().title, presets[0].scenario.title);
        QVERIFY(window.windowTitle().contains(QString::fromStdString(presets[0].scenario.title)));
    }

    void playPauseStepAndResetAreWired()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QString error;
        QVERIFY2(window.openScenario(QStringLiteral("2002-radix-tree-per-file"), &error), qPrintable(error));
        Simulation& sim = window.simulation();
        auto* toolBar = window.runPage()->runToolBar();
        QVERIFY(toolBar->isVisible());
        // Slow enough to catch it running.
        toolBar->speedSlider()->setValue(pcl::ui::RunToolBar::positionFor(100));
        QCOMPARE(sim.scenario().engine.ops_per_second, 100.0);

        QTest::keyClick(&window, Qt::Key_S); // step: each CPU exactly one operation
        QCOMPARE(sim.state(), Simulation::State::Paused);
        const std::uint64_t cpus = sim.scenario().engine.workload.cpus;
        QTRY_COMPARE_WITH_TIMEOUT(sim.engine()->operations(), cpus, 10000);

        QTest::keyClick(&window, Qt::Key_Space); // play
        QCOMPARE(sim.state(), Simulation::State::Running);
        QCOMPARE(toolBar->playAction()->text(), QStringLiteral("Pause"));
        QTRY_VERIFY_WITH_TIMEOUT(sim.engine()->operations() > cpus, 10000);
        QTest::keyClick(&window, Qt::Key_Space); // pause
        QCOMPARE(sim.state(), Simulation::State::Paused);
        QCOMPARE(toolBar->playAction()->text(), QStringLiteral("Play"));

        QTest::keyClick(&window, Qt::Key_R); // reset: a fresh run of the same scenario
        QCOMPARE(sim.state(), Simulation::State::Ready);
        QCOMPARE(sim.engine()->operations(), std::uint64_t(0));
        QCOMPARE(sim.scenario().engine.ops_per_second, 100.0); // the speed chosen stays
    }

    void viewsKeepTheFinalStateAfterTheRunEnds()
    {
        // A student plays a run to its end on the CPUs tab, then looks at
        // the structures: they show the run as it ended, not an empty one.
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QString error;
        QVERIFY2(window.openScenario(shortRun("2002-global-hash-lock", 3000), &error), qPrintable(error));
        QVERIFY(window.runPage()->showView(QStringLiteral("cpus")));
        playToTheEnd(window.simulation());
        QCOMPARE(window.simulation().state(), Simulation::State::Finished);
        const std::uint64_t pages = pcl::Debugfs(*window.simulation().engine()).page_hash()->pages();
        QVERIFY(pages > 0);
        QVERIFY(window.runPage()->showView(QStringLiteral("hash")));
        auto* hash = qobject_cast<pcl::ui::HashView*>(window.runPage()->currentView());
        QVERIFY(hash);
        QCOMPARE(hash->hashLayout().tablePages(), pages);
        for (const auto& label : hash->scene().labels)
            QVERIFY2(!label.text.contains(QStringLiteral("no pages yet")), qPrintable(label.text));

        // The same for a tree, and the lock table still lists the run's locks.
        QVERIFY2(window.openScenario(shortRun("2002-radix-tree-per-file", 3000), &error), qPrintable(error));
        QVERIFY(window.runPage()->showView(QStringLiteral("cpus")));
        playToTheEnd(window.simulation());
        QCOMPARE(window.simulation().state(), Simulation::State::Finished);
        const std::uint64_t filePages = pcl::Debugfs(*window.simulation().engine()).index(0)->count();
        QVERIFY(filePages > 0);
        QVERIFY(window.runPage()->showView(QStringLiteral("radix")));
        auto* radix = qobject_cast<pcl::ui::RadixTreeView*>(window.runPage()->currentView());
        QVERIFY(radix);
        QCOMPARE(radix->layout().snapshot().count, filePages);
        QCOMPARE(window.simulation().state(), Simulation::State::Finished);

        // Until Reset: then a fresh run, and the view starts again empty.
        window.simulation().reset();
        QCOMPARE(radix->layout().snapshot().count, std::uint64_t(0));
    }

    void aTabThatDoesNotApplyIsDisabledWithTheReason()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        QString error;
        QVERIFY2(window.openScenario(QStringLiteral("2002-radix-tree-per-file"), &error), qPrintable(error));
        for (const char* name : { "cpus", "radix", "readahead", "pagetable" }) {
            QVERIFY2(window.runPage()->viewEnabled(QLatin1String(name)), name);
            QVERIFY2(window.runPage()->tabToolTip(QLatin1String(name)).isEmpty(), name);
        }
        for (const char* name : { "hash", "skiplist" }) {
            QVERIFY2(!window.runPage()->viewEnabled(QLatin1String(name)), name);
            const QString why = window.runPage()->tabToolTip(QLatin1String(name));
            QVERIFY2(why.contains(QStringLiteral("radix tree per file")) && why.contains(QStringLiteral("not in use")),
                qPrintable(why));
        }
        QVERIFY(window.runPage()->tabToolTip(QStringLiteral("skiplist")).contains(QStringLiteral("skip list")));

        // A run that uses the hash table enables its tab again, and the tree's goes.
        QVERIFY2(window.openScenario(QStringLiteral("2002-global-hash-lock"), &error), qPrintable(error));
        QVERIFY(window.runPage()->viewEnabled(QStringLiteral("hash")));
        QVERIFY(window.runPage()->tabToolTip(QStringLiteral("hash")).isEmpty());
        QVERIFY(!window.runPage()->viewEnabled(QStringLiteral("radix")));
        QVERIFY(window.runPage()->tabToolTip(QStringLiteral("radix")).contains(QStringLiteral("hash table")));
        QVERIFY(window.runPage()->showView(QStringLiteral("hash")));
        QCOMPARE(window.runPage()->currentView()->objectName(), QStringLiteral("hash"));

        // A run of anonymous memory indexes no page: no index tab applies.
        QVERIFY2(window.openScenario(QStringLiteral("2005-pft-single-page-table-lock"), &error), qPrintable(error));
        for (const char* name : { "radix", "hash", "skiplist" }) {
            QVERIFY2(!window.runPage()->viewEnabled(QLatin1String(name)), name);
            QVERIFY2(window.runPage()->tabToolTip(QLatin1String(name)).contains(QStringLiteral("anonymous")), name);
        }
        QVERIFY(window.runPage()->viewEnabled(QStringLiteral("pagetable")));
        QVERIFY(window.runPage()->currentView()->objectName() != QStringLiteral("hash"));
    }

    void theLessonDockFitsAProjector()
    {
        // 1280 x 720, a projector's: every lesson's every step fits it with
        // the lesson dock open beside the views.
        MainWindow window;
        window.setRememberGeometry(false);
        window.resize(1280, 720);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (const pcl::Lesson& lesson : pcl::bundled_lessons()) {
            QString error;
            QVERIFY2(window.openLesson(QString::fromStdString(lesson.name), &error), qPrintable(error));
            auto* dock = window.findChild<QDockWidget*>(QStringLiteral("lessonDock"));
            QPushButton* next = nullptr;
            for (QPushButton* b : dock->findChildren<QPushButton*>())
                if (b->text() == QStringLiteral("Next"))
                    next = b;
            QVERIFY(next);
            for (std::size_t step = 0; step < lesson.steps.size(); ++step) {
                if (step > 0)
                    next->click();
                QCoreApplication::processEvents();
                QVERIFY(dock->isVisible());
                // On failure, what each part asks for.
                QString parts;
                for (const QDockWidget* dock : window.runPage()->docks())
                    if (dock->isVisible())
                        parts += QStringLiteral(" %1 %2;").arg(dock->objectName()).arg(dock->minimumSizeHint().width());
                parts += QStringLiteral(" centre %1").arg(window.centralWidget()->minimumSizeHint().width());
                QVERIFY2(window.minimumSizeHint().width() <= 1280 && window.minimumWidth() <= 1280,
                    qPrintable(QStringLiteral("%1, step %2: the window needs %3 px:%4")
                                   .arg(QString::fromStdString(lesson.name))
                                   .arg(step + 1)
                                   .arg(std::max(window.minimumSizeHint().width(), window.minimumWidth()))
                                   .arg(parts)));
                window.resize(1280, 720);
                QCoreApplication::processEvents();
                QCOMPARE(window.width(), 1280);
            }
        }
    }

    void compareOpensTwoScenariosSideBySide()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        pcl::ui::CompareWindow* compare = window.showCompare();
        QVERIFY(compare);
        QVERIFY(compare->isVisible());
        QCOMPARE(compare->left().scenario().engine.index.kind, pcl::IndexKind::Hash);
        QCOMPARE(compare->right().scenario().engine.index.kind, pcl::IndexKind::Radix);
        QCOMPARE(compare->left().state(), Simulation::State::Ready);
        QCOMPARE(compare->right().state(), Simulation::State::Ready);
        compare->close(); // deletes itself
    }

    void aBadScenarioFileIsRefusedWithTheField()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"version": 1, "workload": {"cpus": 0}})");
        file.close();
        MainWindow window;
        QString error;
        QVERIFY(!window.openScenario(path, &error));
        QVERIFY2(error.contains(QStringLiteral("workload.cpus")), qPrintable(error));
        QVERIFY(!window.showingRun());
    }

    void aReplayedTraceSaysHowManyBadLinesWereSkipped()
    {
        QTemporaryDir dir;
        QFile trace(dir.filePath(QStringLiteral("t.csv")));
        QVERIFY(trace.open(QIODevice::WriteOnly));
        trace.write("0,1,read,/f,0,4096\n1,1,reed,/f,0,4096\n2,2,read,/f,4096,4096\nnot a line\n");
        trace.close();
        QFile scenario(dir.filePath(QStringLiteral("s.json")));
        QVERIFY(scenario.open(QIODevice::WriteOnly));
        scenario.write(R"({"version": 1, "trace": {"path": "t.csv", "bad_lines": "skip"}})");
        scenario.close();
        MainWindow window;
        window.setRememberGeometry(false);
        QString error;
        QVERIFY2(window.openScenario(scenario.fileName(), &error), qPrintable(error));
        const auto* note = window.findChild<QLabel*>(QStringLiteral("traceNote"));
        QVERIFY(note);
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(QStringLiteral("2 accesses by 2 threads")), qPrintable(note->text()));
        QVERIFY2(note->text().contains(QStringLiteral("2 bad line(s) skipped")), qPrintable(note->text()));
        QVERIFY2(
            note->toolTip().contains(QStringLiteral("line 2")) && note->toolTip().contains(QStringLiteral("line 4")),
            qPrintable(note->toolTip()));
        // Under stop, the same file is refused naming the line.
        scenario.open(QIODevice::WriteOnly | QIODevice::Truncate);
        scenario.write(R"({"version": 1, "trace": {"path": "t.csv"}})");
        scenario.close();
        QVERIFY(!window.openScenario(scenario.fileName(), &error));
        QVERIFY2(error.contains(QStringLiteral("line 2")), qPrintable(error));
        // A scenario without a trace hides the note.
        QVERIFY(window.openScenario(QStringLiteral("2002-global-hash-lock"), &error));
        QVERIFY(note->isHidden());
    }

    void theUserGuideShowsEveryViewWithItsScreenshot()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        window.showUserGuide();
        auto* dialog = window.findChild<QDialog*>(QStringLiteral("userGuide"));
        QVERIFY(dialog);
        auto* text = dialog->findChild<QTextBrowser*>(QStringLiteral("userGuideText"));
        QVERIFY(text);
        const QString plain = text->toPlainText();
        for (const char* heading :
            { "Radix tree", "Hash table", "Skip list", "Readahead and page state", "Page table" })
            QVERIFY2(plain.contains(QLatin1String(heading)), heading);
        // Every view's screenshot resolves from the resources, scaled to the page.
        for (const char* name : { "radix", "hash", "skiplist", "readahead", "pagetable" }) {
            const QUrl url(QStringLiteral("screenshots/view-%1.png").arg(QLatin1String(name)));
            const QVariant image = text->loadResource(QTextDocument::ImageResource, url);
            QVERIFY2(image.canConvert<QImage>() && !image.value<QImage>().isNull(), name);
            QCOMPARE(image.value<QImage>().width(), 760);
        }
        dialog->close();
    }

    void noTextIsClipped()
    {
        // Wrapped labels must get the height they ask for at every width,
        // narrow windows included (the page scrolls instead).
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        for (int width = 560; width <= 1400; width += 20) {
            window.resize(width, 600);
            QCoreApplication::processEvents();
            for (const QLabel* label : window.welcomePage()->findChildren<QLabel*>()) {
                if (!label->wordWrap())
                    continue;
                QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                    qPrintable(QStringLiteral("at %1 px: '%2' is %3 px high, needs %4")
                                   .arg(width)
                                   .arg(label->text().left(40))
                                   .arg(label->height())
                                   .arg(label->heightForWidth(label->width()))));
            }
        }
    }

    void geometryIsRemembered()
    {
        const QSize size(640, 480);
        {
            MainWindow window;
            window.resize(size);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            window.close();
        }
        MainWindow window;
        QVERIFY(window.restoreSettings());
        QCOMPARE(window.size(), size);
    }

    void scriptedRunsLeaveSettingsAlone()
    {
        QSettings().clear();
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.close();
        QVERIFY(!MainWindow().restoreSettings());
    }

    void grabIsNotBlank()
    {
        MainWindow window;
        window.setRememberGeometry(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QImage image = window.grab().toImage().convertToFormat(QImage::Format_RGB32);
        QVERIFY2(image.width() >= 400 && image.height() >= 300,
            qPrintable(QStringLiteral("%1x%2").arg(image.width()).arg(image.height())));

        std::unordered_set<QRgb> colours;
        for (int y = 0; y < image.height(); ++y) {
            const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
            colours.insert(line, line + image.width());
        }
        // Text, icon and cards: far more than a few flat colours.
        QVERIFY2(colours.size() > 64, qPrintable(QString::number(colours.size())));
    }
};

PCL_UI_TEST(TestMainWindow)
#include "test_mainwindow.moc"
