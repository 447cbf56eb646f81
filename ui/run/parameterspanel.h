// The Parameters panel: every field of the scenario as a form, for a dock.
//
// Each edit is checked the way a scenario file is: the panel writes the
// current scenario as JSON, sets the edited field, and parses the document
// with scenario_from_json(). A value the scenario refuses stays in its
// editor, marked, with the scenario's own message under the field it names,
// and changes nothing. An accepted value of a live parameter (speed, lock
// stretch) goes to the running engine at once; any other waits, listed in a
// "Restart to apply" banner, until the user applies it (a new run is built)
// or discards it.
#pragma once

#include "lib/json.h"
#include "run/parametereditor.h"
#include "run/parameteredits.h"
#include "run/parameterschema.h"
#include "run/simulation.h"
#include "sim/scenario.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

class QFrame;
class QLabel;
class QPushButton;
class QScrollArea;
class QToolButton;

namespace pcl::ui {

class ParametersPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParametersPanel(Simulation& simulation, QWidget* parent = nullptr);
    ~ParametersPanel() override;

    /// The scenario the form describes: the run's, with every accepted
    /// change (pending or applied).
    Scenario pendingScenario() const;
    /// Parameters changed but waiting for a restart, in form order ("workload.cpus").
    QStringList pendingPaths() const;
    bool hasPending() const { return !pendingPaths().isEmpty(); }
    /// Parameters whose editor holds a refused value.
    QStringList refusedPaths() const;

    /// The editor of @path (its objectName is the path), nullptr for none.
    QWidget* editor(const QString& path) const;
    /// The message shown under @path's editor, empty when there is none.
    QString errorText(const QString& path) const;
    /// The text of the restart banner ("Restart to apply: workload.cpus"), empty when hidden.
    QString bannerText() const;

    bool eventFilter(QObject* watched, QEvent* event) override;

public Q_SLOTS:
    /// Builds a new run of pendingScenario() (Simulation::setScenario);
    /// does nothing while a value is refused.
    void applyAndRestart();
    /// Drops pending and refused values; the form shows the run's scenario again.
    void discard();
    /// Sets @path back to its default, as if typed.
    void resetToDefault(const QString& path);

Q_SIGNALS:
    /// pendingPaths() or refusedPaths() changed.
    void pendingChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Field {
        const ParameterSpec* spec = nullptr;
        QWidget* editor = nullptr;
        QLabel* label = nullptr;
        QLabel* error = nullptr;
        QToolButton* reset = nullptr;
    };
    using Attempt = ParameterEdits::Attempt;

    void buildForm();
    QWidget* makeEditor(const ParameterSpec& spec);
    Field* field(const std::string& path);
    const Field* field(const std::string& path) const;

    void onEdited(Field& field);
    /// A live field being typed in: shows whether the text would be taken.
    void preview(Field& field);
    /// Accepts what can be accepted, shows why the rest is refused, and
    /// brings the editors, the banner and the run in line.
    void settle(const Field* source);
    Attempt readEditor(const Field& field) const;
    void showValue(Field& field, const json::Value& value);
    void syncEditors(const Field* source);
    void showErrors();
    void updateDecorations();
    void applyLive();
    void updateBanner();
    void applyErrorLook(Field& field, bool error);
    void onRunReset();
    void onTicked();
    void onStateChanged();
    void restyle();

    Simulation& simulation_;
    ParameterEdits edits_; ///< the run's scenario, the pending one and the attempts
    std::vector<Field> fields_;
    bool loading_ = false; ///< editors are being set by the panel, not typed
    QStringList lastPending_;
    QStringList lastRefused_;

    QFrame* banner_ = nullptr;
    QLabel* bannerLabel_ = nullptr;
    QPushButton* applyButton_ = nullptr; ///< held back while a value is refused
    QLabel* runError_ = nullptr;
    QScrollArea* scroll_ = nullptr;
};

} // namespace pcl::ui
