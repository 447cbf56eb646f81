// The Parameters panel: a schema entry for every scenario field, values
// refused with the scenario's own message, live and restart changes, and
// 64-bit values kept exactly.
#include "run/parameterschema.h"
#include "run/parameterspanel.h"
#include "run/simulation.h"
#include "ui_test_registry.h"
#include "ui_test_support.h"

#include "index/index_factory.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <limits>

using pcl::Scenario;
using pcl::ui::ParametersPanel;
using pcl::ui::Simulation;

using pcl::ui::test::darkPalette;
using pcl::ui::test::distinctColours;
using pcl::ui::test::screenshotDir;

namespace {

Scenario small()
{
    Scenario s;
    s.title = "Two readers";
    s.engine.workload.pattern = pcl::WorkloadPattern::Sequential;
    s.engine.workload.cpus = 2;
    s.engine.workload.file_pages = 256;
    s.engine.workload.operations_per_cpu = 64;
    s.engine.index.scheme = "rcu";
    s.engine.memory_pages = 4096;
    s.engine.device = { 1000, 100, 1.0 };
    s.sample_interval_ms = 20;
    return s;
}

/// A simulation of a scenario and its Parameters panel, built in the main
/// window's order: the scenario is set before the panel first reads it.
struct PanelOf {
    struct Loaded : Simulation {
        explicit Loaded(const Scenario& scenario) { setScenario(scenario); }
    };
    explicit PanelOf(const Scenario& scenario = small())
        : sim(scenario)
        , panel(sim)
    {
    }
    Loaded sim;
    ParametersPanel panel;
};

QLineEdit* lineOf(ParametersPanel& panel, const char* path)
{
    QWidget* w = panel.editor(QString::fromLatin1(path));
    if (!w)
        return nullptr;
    if (auto* line = qobject_cast<QLineEdit*>(w))
        return line;
    return w->findChild<QLineEdit*>();
}

/// Replaces the text of @path's editor as a user would: select all, type, Enter.
void type(ParametersPanel& panel, const char* path, const QString& text)
{
    QLineEdit* line = lineOf(panel, path);
    QVERIFY2(line, path);
    // A spin box takes the keys and hands them to its line edit.
    QWidget* target = panel.editor(QString::fromLatin1(path));
    target->setFocus();
    line->selectAll();
    if (text.isEmpty())
        QTest::keyClick(target, Qt::Key_Backspace);
    else
        QTest::keyClicks(target, text);
    QTest::keyClick(target, Qt::Key_Return);
}

QComboBox* comboOf(ParametersPanel& panel, const char* path)
{
    return qobject_cast<QComboBox*>(panel.editor(QString::fromLatin1(path)));
}

QStringList comboValues(QComboBox* box)
{
    QStringList values;
    for (int i = 0; i < box->count(); ++i)
        values << box->itemData(i).toString();
    return values;
}

QString shotPath(const QString& name)
{
    return QDir(screenshotDir()).filePath(name);
}

} // namespace

class TestParameters : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void schemaCoversEveryLeafOfAScenario()
    {
        // The oracle: the leaves scenario_to_json writes. A field added to
        // the format without a parameter fails here.
        std::vector<std::string> leaves = pcl::ui::leafPaths(pcl::scenario_to_json(Scenario {}));
        std::vector<std::string> schema;
        for (const auto& p : pcl::ui::parameterSchema())
            schema.push_back(p.path);
        QCOMPARE(schema.size(), leaves.size());
        std::sort(leaves.begin(), leaves.end());
        std::sort(schema.begin(), schema.end());
        QVERIFY(leaves == schema);
        QCOMPARE(leaves.size(), std::size_t(75));

        // Every parameter is in a group, has words, and (but the version) an editor.
        Simulation sim;
        ParametersPanel panel(sim);
        const QStringList groups = pcl::ui::parameterGroups();
        for (const auto& p : pcl::ui::parameterSchema()) {
            const QString path = QString::fromStdString(p.path);
            QVERIFY2(groups.contains(p.group), qPrintable(path));
            QVERIFY2(!p.label.isEmpty() && !p.meaning.isEmpty() && !p.allowed.isEmpty(), qPrintable(path));
            QVERIFY2(!p.defaultValue.is_null(), qPrintable(path));
            QVERIFY2(p.toolTip().contains(path), qPrintable(path));
            if (p.apply == pcl::ui::ParameterSpec::Apply::Fixed)
                QVERIFY(panel.editor(path) == nullptr);
            else
                QVERIFY2(panel.editor(path) != nullptr, qPrintable(path));
        }
    }

    void defaultsAndLivenessComeFromTheFormat()
    {
        const auto* cpus = pcl::ui::findParameter("workload.cpus");
        QVERIFY(cpus);
        QCOMPARE(cpus->defaultValue.as_uint(), std::uint64_t(1));
        QCOMPARE(cpus->minInt, std::uint64_t(1));
        QCOMPARE(cpus->maxInt, std::uint64_t(1024));
        QCOMPARE(pcl::ui::findParameter("memory_pages")->defaultValue.as_uint(), std::uint64_t(262144));
        QCOMPARE(pcl::ui::findParameter("index.hash_memory_bytes")->defaultValue.as_uint(), std::uint64_t(1) << 28);
        QCOMPARE(pcl::ui::findParameter("workload.read_fraction")->defaultValue.as_double(), 0.5);
        QVERIFY(cpus->toolTip().contains(QStringLiteral("Default: 1")));
        QStringList live;
        for (const auto& p : pcl::ui::parameterSchema())
            if (p.isLive())
                live << QString::fromStdString(p.path);
        QCOMPARE(live, QStringList({ "pacing.ops_per_second", "pacing.hold_stretch_ns" }));
    }

    void anOutOfRangeValueIsRefusedInPlace()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        QSignalSpy changed(&panel, &ParametersPanel::pendingChanged);

        type(panel, "workload.cpus", QStringLiteral("0"));
        const QString message = panel.errorText(QStringLiteral("workload.cpus"));
        QVERIFY2(message.startsWith(QStringLiteral("workload.cpus:")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("[1, 1024]")), qPrintable(message));
        QCOMPARE(panel.refusedPaths(), QStringList { "workload.cpus" });
        QCOMPARE(panel.editor(QStringLiteral("workload.cpus"))->property("refused").toBool(), true);
        QCOMPARE(sim.scenario().engine.workload.cpus, 2u);
        QCOMPARE(panel.pendingScenario().engine.workload.cpus, 2u);
        QVERIFY(!panel.hasPending());
        QVERIFY(panel.bannerText().isEmpty());
        QVERIFY(changed.count() >= 1);

        // A hold stretch beyond 10^9 ns, and an empty field, are refused the same way.
        type(panel, "pacing.hold_stretch_ns", QStringLiteral("2000000000"));
        QVERIFY(panel.errorText(QStringLiteral("pacing.hold_stretch_ns")).startsWith("pacing.hold_stretch_ns:"));
        QCOMPARE(sim.scenario().engine.hold_stretch_ns, std::uint64_t(0));
        type(panel, "memory_pages", QString());
        QVERIFY(panel.errorText(QStringLiteral("memory_pages")).startsWith("memory_pages:"));
        QCOMPARE(panel.pendingScenario().engine.memory_pages, std::uint64_t(4096));

        // Fixed: the error goes, the value is taken.
        type(panel, "workload.cpus", QStringLiteral("4"));
        QVERIFY(panel.errorText(QStringLiteral("workload.cpus")).isEmpty());
        QCOMPARE(panel.editor(QStringLiteral("workload.cpus"))->property("refused").toBool(), false);
        QCOMPARE(panel.pendingScenario().engine.workload.cpus, 4u);
        QCOMPARE(sim.scenario().engine.workload.cpus, 2u);
    }

    void aCrossFieldErrorIsShownOnTheFieldItNames()
    {
        Scenario s = small();
        s.engine.workload.pattern = pcl::WorkloadPattern::Strided;
        s.engine.workload.stride = 16;
        PanelOf under(s);
        auto& [sim, panel] = under;

        // What the scenario itself says about a 8-page file with a 16-page stride.
        pcl::json::Value doc = pcl::scenario_to_json(s);
        pcl::ui::setValueAt(doc, "workload.file_pages", pcl::json::Value(8));
        std::string field, what;
        try {
            pcl::scenario_from_json(doc);
        } catch (const pcl::ScenarioError& e) {
            field = e.field();
            what = e.what();
        }
        QCOMPARE(field, std::string("workload.stride"));

        type(panel, "workload.file_pages", QStringLiteral("8"));
        QCOMPARE(panel.errorText(QStringLiteral("workload.stride")), QString::fromStdString(what));
        QVERIFY(panel.errorText(QStringLiteral("workload.file_pages")).contains(QStringLiteral("workload.stride")));
        QCOMPARE(panel.editor(QStringLiteral("workload.stride"))->property("refused").toBool(), true);
        QCOMPARE(panel.pendingScenario().engine.workload.file_pages, std::uint64_t(256));

        // Fixing the neighbour lets the refused value in.
        type(panel, "workload.stride", QStringLiteral("4"));
        QVERIFY(panel.refusedPaths().isEmpty());
        QVERIFY(panel.errorText(QStringLiteral("workload.stride")).isEmpty());
        QVERIFY(panel.errorText(QStringLiteral("workload.file_pages")).isEmpty());
        QCOMPARE(panel.pendingScenario().engine.workload.file_pages, std::uint64_t(8));
        QCOMPARE(panel.pendingScenario().engine.workload.stride, std::uint64_t(4));
        QCOMPARE(panel.pendingPaths(), QStringList({ "workload.file_pages", "workload.stride" }));
    }

    void aLiveChangeReachesTheRunAtOnce()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        type(panel, "pacing.ops_per_second", QStringLiteral("50"));
        QCOMPARE(sim.scenario().engine.ops_per_second, 50.0);
        QVERIFY(sim.engine());
        QCOMPARE(sim.engine()->ops_per_second(), 50.0);
        type(panel, "pacing.hold_stretch_ns", QStringLiteral("250000"));
        QCOMPARE(sim.scenario().engine.hold_stretch_ns, std::uint64_t(250000));
        QCOMPARE(sim.engine()->hold_stretch_ns(), std::uint64_t(250000));
        QVERIFY(!panel.hasPending());
        QVERIFY(panel.bannerText().isEmpty());

        // Speed set elsewhere (a toolbar) shows here on the next tick.
        sim.setPacing(7, 0);
        Q_EMIT sim.ticked();
        lineOf(panel, "pacing.ops_per_second")->clearFocus();
        sim.setPacing(8, 0);
        Q_EMIT sim.ticked();
        QCOMPARE(lineOf(panel, "pacing.ops_per_second")->text(), QStringLiteral("8.0"));
        QCOMPARE(panel.pendingScenario().engine.ops_per_second, 8.0);
    }

    void aRestartChangeWaitsForApply()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        QSignalSpy resets(&sim, &Simulation::runReset);

        type(panel, "workload.cpus", QStringLiteral("3"));
        QCOMPARE(panel.pendingPaths(), QStringList { "workload.cpus" });
        QCOMPARE(panel.bannerText(), QStringLiteral("Restart to apply: workload.cpus"));
        auto* banner = panel.findChild<QWidget*>(QStringLiteral("restartBanner"));
        QVERIFY(banner && !banner->isHidden());
        QCOMPARE(sim.scenario().engine.workload.cpus, 2u);
        QCOMPARE(resets.count(), 0);

        QComboBox* pattern = comboOf(panel, "workload.pattern");
        pattern->setCurrentIndex(pattern->findData(QStringLiteral("random")));
        QCOMPARE(panel.bannerText(), QStringLiteral("Restart to apply: workload.pattern, workload.cpus"));

        QPushButton* apply = nullptr;
        for (auto* b : panel.findChildren<QPushButton*>())
            if (b->text() == QStringLiteral("Apply and restart"))
                apply = b;
        QVERIFY(apply);
        QTest::mouseClick(apply, Qt::LeftButton);
        QCOMPARE(resets.count(), 1);
        QCOMPARE(sim.scenario().engine.workload.cpus, 3u);
        QVERIFY(sim.scenario().engine.workload.pattern == pcl::WorkloadPattern::Random);
        QCOMPARE(sim.state(), Simulation::State::Ready);
        QCOMPARE(sim.engine()->cpu_counters().size(), std::size_t(3));
        QVERIFY(!panel.hasPending());
        QVERIFY(banner->isHidden());
        QCOMPARE(lineOf(panel, "workload.cpus")->text(), QStringLiteral("3"));
    }

    void discardAndANewScenarioReloadTheForm()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        type(panel, "workload.cpus", QStringLiteral("5"));
        type(panel, "index.radix_shift", QStringLiteral("9"));
        QVERIFY(panel.hasPending());
        QVERIFY(!panel.refusedPaths().isEmpty());
        panel.discard();
        QVERIFY(!panel.hasPending());
        QVERIFY(panel.refusedPaths().isEmpty());
        QCOMPARE(lineOf(panel, "workload.cpus")->text(), QStringLiteral("2"));
        QCOMPARE(lineOf(panel, "index.radix_shift")->text(), QStringLiteral("6"));
        QVERIFY(panel.errorText(QStringLiteral("index.radix_shift")).isEmpty());

        // A reset of the same run keeps pending edits; a new scenario replaces them.
        type(panel, "workload.cpus", QStringLiteral("5"));
        sim.reset();
        QCOMPARE(panel.pendingPaths(), QStringList { "workload.cpus" });
        const Scenario other = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
        sim.setScenario(other);
        QVERIFY(!panel.hasPending());
        QCOMPARE(lineOf(panel, "workload.cpus")->text(), QString::number(other.engine.workload.cpus));
        QCOMPARE(comboOf(panel, "index.kind")->currentData().toString(), QStringLiteral("hash"));
        QCOMPARE(lineOf(panel, "title")->text(), QString::fromStdString(other.title));

        // Reset to default, as if typed.
        panel.resetToDefault(QStringLiteral("workload.cpus"));
        QCOMPARE(panel.pendingScenario().engine.workload.cpus, 1u);
        QCOMPARE(lineOf(panel, "workload.cpus")->text(), QStringLiteral("1"));
    }

    void aChangedPresetSaysSoInItsTitle()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        QComboBox* kind = comboOf(panel, "index.kind");
        kind->setCurrentIndex(kind->findData(QStringLiteral("skiplist")));
        const QString kindLabel = QString(pcl::ui::findParameter("index.kind")->label);
        const QString skipList = pcl::ui::choiceText(*pcl::ui::findParameter("index.kind"), "skiplist", {});
        panel.applyAndRestart();
        QCOMPARE(sim.scenario().engine.index.kind, pcl::IndexKind::SkipList);
        // What the saved file, the report and the captions are titled.
        const QString title = QString::fromStdString(sim.scenario().title);
        QVERIFY2(title.startsWith(QStringLiteral("Two readers (changed: ")), qPrintable(title));
        QVERIFY2(title.contains(kindLabel + QStringLiteral(": ") + skipList), qPrintable(title));
        QVERIFY(title.endsWith(QLatin1Char(')')));

        // A second change joins the first, and a field changed again says
        // only its latest value.
        type(panel, "workload.cpus", QStringLiteral("3"));
        panel.applyAndRestart();
        kind->setCurrentIndex(kind->findData(QStringLiteral("hash")));
        panel.applyAndRestart();
        const QString again = QString::fromStdString(sim.scenario().title);
        QCOMPARE(again.count(QStringLiteral("(changed: ")), 1);
        QVERIFY2(again.contains(QString(pcl::ui::findParameter("workload.cpus")->label) + QStringLiteral(": 3")),
            qPrintable(again));
        QVERIFY2(!again.contains(skipList), qPrintable(again));
        QCOMPARE(again.count(kindLabel + QStringLiteral(": ")), 1);

        // A title typed by the user is the title.
        type(panel, "title", QStringLiteral("Mine"));
        type(panel, "workload.cpus", QStringLiteral("4"));
        panel.applyAndRestart();
        QCOMPARE(sim.scenario().title, std::string("Mine"));
        // A speed set live is no change to the preset.
        PanelOf live;
        live.sim.setPacing(25, 0);
        QCOMPARE(live.panel.pendingScenario().title, std::string("Two readers"));
    }

    void theIndexKindChoosesTheSchemes()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        QComboBox* kind = comboOf(panel, "index.kind");
        QComboBox* scheme = comboOf(panel, "index.scheme");
        QVERIFY(kind && scheme);
        QStringList radix { "" };
        for (const auto& s : pcl::index_schemes(pcl::IndexKind::Radix))
            radix << QString::fromStdString(s);
        QCOMPARE(comboValues(scheme), radix);
        QCOMPARE(scheme->currentData().toString(), QStringLiteral("rcu"));

        kind->setCurrentIndex(kind->findData(QStringLiteral("hash")));
        QStringList hash { "" };
        for (const auto& s : pcl::index_schemes(pcl::IndexKind::Hash))
            hash << QString::fromStdString(s);
        QCOMPARE(comboValues(scheme), hash);
        // rcu is no hash scheme: the new kind starts from its default.
        QCOMPARE(scheme->currentData().toString(), QString());
        QCOMPARE(scheme->currentText(), QStringLiteral("default (global)"));
        QVERIFY(panel.refusedPaths().isEmpty());
        QCOMPARE(panel.pendingScenario().engine.index.kind, pcl::IndexKind::Hash);
        QCOMPARE(panel.pendingScenario().engine.index.scheme, std::string());
        QCOMPARE(panel.pendingPaths(), QStringList({ "index.kind", "index.scheme" }));

        scheme->setCurrentIndex(scheme->findData(QStringLiteral("bucket")));
        QCOMPARE(panel.pendingScenario().engine.index.scheme, std::string("bucket"));
        QCOMPARE(sim.scenario().engine.index.kind, pcl::IndexKind::Radix);
    }

    void sixtyFourBitValuesRoundTripExactly()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
        type(panel, "workload.seed", QStringLiteral("18446744073709551615"));
        QCOMPARE(lineOf(panel, "workload.seed")->text(), QStringLiteral("18446744073709551615"));
        QVERIFY(panel.refusedPaths().isEmpty());
        QCOMPARE(panel.pendingScenario().engine.workload.seed, kMax);
        type(panel, "index.skiplist_seed", QStringLiteral("18446744073709551614"));
        QCOMPARE(panel.pendingScenario().engine.index.skiplist_seed, kMax - 1);
        panel.applyAndRestart();
        QCOMPARE(sim.scenario().engine.workload.seed, kMax);
        QCOMPARE(sim.scenario().engine.index.skiplist_seed, kMax - 1);
        QCOMPARE(lineOf(panel, "workload.seed")->text(), QStringLiteral("18446744073709551615"));
        QCOMPARE(lineOf(panel, "index.skiplist_seed")->text(), QStringLiteral("18446744073709551614"));

        // One more does not fit: refused with the field's range, nothing wraps.
        type(panel, "workload.seed", QStringLiteral("18446744073709551616"));
        const QString message = panel.errorText(QStringLiteral("workload.seed"));
        QVERIFY2(message.startsWith(QStringLiteral("workload.seed:")), qPrintable(message));
        QCOMPARE(panel.pendingScenario().engine.workload.seed, kMax);

        // The arrows stop at the top instead of wrapping to 0.
        type(panel, "workload.seed", QStringLiteral("18446744073709551614"));
        auto* box = qobject_cast<QAbstractSpinBox*>(panel.editor(QStringLiteral("workload.seed")));
        QVERIFY(box);
        box->stepUp();
        box->stepUp();
        QCOMPARE(panel.pendingScenario().engine.workload.seed, kMax);
        QCOMPARE(lineOf(panel, "workload.seed")->text(), QStringLiteral("18446744073709551615"));
    }

    void booleansAndDoublesEdit()
    {
        PanelOf under;
        auto& [sim, panel] = under;
        auto* around = qobject_cast<QCheckBox*>(panel.editor(QStringLiteral("fault.fault_around")));
        QVERIFY(around);
        around->setChecked(true);
        QCOMPARE(panel.pendingScenario().engine.fault.fault_around, true);
        QCOMPARE(panel.pendingPaths(), QStringList { "fault.fault_around" });

        type(panel, "workload.read_fraction", QStringLiteral("0.333333333333"));
        QCOMPARE(panel.pendingScenario().engine.workload.read_fraction, 0.333333333333);
        type(panel, "workload.read_fraction", QStringLiteral("1.5"));
        QVERIFY(panel.errorText(QStringLiteral("workload.read_fraction")).startsWith("workload.read_fraction:"));
        type(panel, "index.skiplist_p", QStringLiteral("0.25"));
        auto* p = qobject_cast<QAbstractSpinBox*>(panel.editor(QStringLiteral("index.skiplist_p")));
        p->stepUp();
        QCOMPARE(lineOf(panel, "index.skiplist_p")->text(), QStringLiteral("0.3"));
        QCOMPARE(panel.pendingScenario().engine.index.skiplist_p, 0.3);

        // Powers of two step by doubling.
        type(panel, "events.ring_capacity", QStringLiteral("1024"));
        qobject_cast<QAbstractSpinBox*>(panel.editor(QStringLiteral("events.ring_capacity")))->stepUp();
        QCOMPARE(panel.pendingScenario().engine.event_ring_capacity, std::size_t(2048));
    }

    void screenshotsAreNotBlank()
    {
        const Scenario s = pcl::load_scenario(PCL_SOURCE_DIR "/resources/scenarios/2002-global-hash-lock.json");
        const QPalette light = QApplication::style()->standardPalette();
        for (const bool dark : { false, true }) {
            QApplication::setPalette(dark ? darkPalette() : light);
            PanelOf under(s);
            auto& [sim, panel] = under;
            panel.resize(360, 900);
            panel.show();
            QVERIFY(QTest::qWaitForWindowExposed(&panel));
            const QString suffix = dark ? QStringLiteral("dark") : QStringLiteral("light");
            if (qEnvironmentVariableIsSet("PCL_DEBUG_SIZES"))
                for (auto* w : panel.findChildren<QWidget*>())
                    if (w->minimumSizeHint().width() > 100 && w->isVisible())
                        qDebug() << w->metaObject()->className() << w->objectName() << w->minimumSizeHint()
                                 << w->width();
            QImage image = panel.grab().toImage();
            QVERIFY(image.save(shotPath(QStringLiteral("parameters-%1.png").arg(suffix))));
            QVERIFY(distinctColours(image) > 20);
            // The lower sections (pacing, events, run), scrolled to.
            if (auto* scroll = panel.findChild<QScrollArea*>()) {
                scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
                QVERIFY(panel.grab().save(shotPath(QStringLiteral("parameters-bottom-%1.png").arg(suffix))));
                scroll->verticalScrollBar()->setValue(0);
            }

            // With a pending change and a refused value, scrolled to them.
            type(panel, "workload.cpus", QStringLiteral("8"));
            type(panel, "workload.file_pages", QStringLiteral("0"));
            QTest::qWait(10);
            image = panel.grab().toImage();
            QVERIFY(image.save(shotPath(QStringLiteral("parameters-error-%1.png").arg(suffix))));
            QVERIFY(distinctColours(image) > 20);
        }
        QApplication::setPalette(light);
    }
};

PCL_UI_TEST(TestParameters)
#include "test_parameters.moc"
