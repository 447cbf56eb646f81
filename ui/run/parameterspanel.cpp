#include "run/parameterspanel.h"

#include "kit/colors.h"
#include "run/numberbox.h"
#include "run/parametereditor.h"
#include "run/parameteredits.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <set>

namespace pcl::ui {

namespace {

using Type = ParameterSpec::Type;

QColor mix(const QColor& a, const QColor& b, double k)
{
    return QColor::fromRgbF(
        a.redF() * (1 - k) + b.redF() * k, a.greenF() * (1 - k) + b.greenF() * k, a.blueF() * (1 - k) + b.blueF() * k);
}

/// The error red, dark enough on a light window and light enough on a dark one to read as text.
QColor errorColour(const QPalette& p)
{
    return colors::isDark(p) ? colors::lockBlocked().lighter(135) : colors::lockBlocked().darker(125);
}

QFont scaled(QFont f, double k, bool bold)
{
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * k);
    f.setBold(bold);
    return f;
}

} // namespace

ParametersPanel::ParametersPanel(Simulation& simulation, QWidget* parent)
    : QWidget(parent)
    , simulation_(simulation)
    , edits_(scenario_to_json(simulation.scenario(), true))
{
    setObjectName(QStringLiteral("parametersPanel"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);

    // The banner: what waits for a restart, and the two ways out.
    banner_ = new QFrame;
    banner_->setObjectName(QStringLiteral("restartBanner"));
    banner_->setAutoFillBackground(true);
    banner_->setFrameShape(QFrame::StyledPanel);
    auto* bannerLayout = new QVBoxLayout(banner_);
    bannerLayout->setContentsMargins(10, 8, 10, 8);
    bannerLayout->setSpacing(6);
    bannerLabel_ = new QLabel;
    bannerLabel_->setWordWrap(true);
    bannerLabel_->setTextFormat(Qt::RichText);
    bannerLayout->addWidget(bannerLabel_);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    auto* discardButton = new QPushButton(tr("Discard"));
    discardButton->setToolTip(tr("Forget the pending changes; the form shows the running scenario again."));
    applyButton_ = new QPushButton(tr("Apply and restart"));
    applyButton_->setToolTip(tr("End the current run and build a new one with these parameters."));
    applyButton_->setDefault(true);
    buttons->addWidget(discardButton);
    buttons->addWidget(applyButton_);
    bannerLayout->addLayout(buttons);
    banner_->hide();
    layout->addWidget(banner_);
    connect(applyButton_, &QPushButton::clicked, this, &ParametersPanel::applyAndRestart);
    connect(discardButton, &QPushButton::clicked, this, &ParametersPanel::discard);

    // Why the run could not be built (a scenario can be valid and still not
    // fit, e.g. more file pages than memory): said here, where it was set.
    runError_ = new QLabel;
    runError_->setObjectName(QStringLiteral("runError"));
    runError_->setWordWrap(true);
    runError_->setContentsMargins(10, 6, 10, 6);
    runError_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    runError_->hide();
    layout->addWidget(runError_);

    scroll_ = new QScrollArea;
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    layout->addWidget(scroll_, 1);

    buildForm();
    restyle();

    connect(&simulation_, &Simulation::runReset, this, &ParametersPanel::onRunReset);
    connect(&simulation_, &Simulation::ticked, this, &ParametersPanel::onTicked);
    connect(&simulation_, &Simulation::stateChanged, this, &ParametersPanel::onStateChanged);
    onStateChanged();
}

ParametersPanel::~ParametersPanel()
{
    // The editors outlive this object's members (QWidget deletes children
    // last), and a focused one says editingFinished as it goes: cut them off
    // while the members still exist.
    loading_ = true;
    for (Field& f : fields_) {
        f.editor->disconnect(this);
        for (QObject* child : f.editor->findChildren<QObject*>())
            child->disconnect(this);
        f.reset->disconnect(this);
    }
    simulation_.disconnect(this);
}

void ParametersPanel::buildForm()
{
    auto* content = new QWidget;
    content->setObjectName(QStringLiteral("parametersContent"));
    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(10, 6, 10, 10);
    column->setSpacing(2);

    fields_.reserve(parameterSchema().size());
    std::vector<QGridLayout*> grids;
    for (const QString& group : parameterGroups()) {
        // A section: a header that folds it, then a form.
        auto* header = new QToolButton;
        header->setObjectName(QStringLiteral("section:") + group);
        header->setText(QString(group).replace(QLatin1Char('&'), QStringLiteral("&&"))); // no mnemonic
        header->setCheckable(true);
        header->setChecked(true);
        header->setAutoRaise(true);
        header->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        header->setArrowType(Qt::DownArrow);
        header->setFont(scaled(font(), 1.08, true));
        header->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        header->setStyleSheet(
            QStringLiteral("QToolButton { text-align: left; border: none; padding: 6px 0px 2px 0px; }"));
        auto* rule = new QFrame;
        rule->setFrameShape(QFrame::HLine);
        rule->setFrameShadow(QFrame::Sunken);
        column->addSpacing(4);
        column->addWidget(header);
        column->addWidget(rule);

        auto* body = new QWidget;
        auto* grid = new QGridLayout(body);
        grid->setContentsMargins(4, 4, 0, 6);
        grid->setHorizontalSpacing(8);
        grid->setVerticalSpacing(4);
        grid->setColumnStretch(1, 1);
        int row = 0;
        const bool explore = group == QStringLiteral("Looking for races");
        if (group == QStringLiteral("Pacing") || explore) {
            auto* note = new QLabel(explore
                    ? tr("On a modelled machine only. Instead of the CPU furthest behind in time, any CPU may run "
                         "next at every step, chosen from the seed: a search for the interleavings where races "
                         "hide, the same again for the same seed. Its times are not the machine's.")
                    : tr("Speed and lock-hold stretch apply at once, while the run goes on."));
            note->setWordWrap(true);
            note->setForegroundRole(QPalette::PlaceholderText);
            grid->addWidget(note, row++, 0, 1, 3);
        }
        for (const ParameterSpec& spec : parameterSchema()) {
            if (spec.group != group || spec.apply == ParameterSpec::Apply::Fixed)
                continue;
            Field f;
            f.spec = &spec;
            f.label = new QLabel(spec.label);
            f.label->setToolTip(spec.toolTip());
            f.editor = makeEditor(spec);
            f.editor->setObjectName(QString::fromStdString(spec.path));
            f.editor->setToolTip(spec.toolTip());
            f.editor->installEventFilter(this);
            // Narrow docks shrink the editors, never push the reset buttons out
            // of view, yet keep room for a value with its unit ("1000 ops/s",
            // "sequential"): the labels wrap first.
            f.editor->setMinimumWidth(fontMetrics().averageCharWidth() * 15);
            f.label->setWordWrap(true);
            f.label->setBuddy(f.editor);

            f.reset = new QToolButton;
            f.reset->setAutoRaise(true);
            f.reset->setText(QStringLiteral("\u21ba"));
            f.reset->setToolTip(
                tr("Reset to the default, %1")
                    .arg(spec.type == Type::Bool
                            ? (spec.defaultValue.is_bool() && spec.defaultValue.as_bool() ? tr("on") : tr("off"))
                            : spec.defaultValue.is_string() && spec.defaultValue.as_string().empty()
                            ? tr("empty")
                            : displayText(spec.defaultValue)));
            f.reset->setAccessibleName(tr("Reset %1").arg(spec.label));
            QSizePolicy keep = f.reset->sizePolicy();
            keep.setRetainSizeWhenHidden(true);
            f.reset->setSizePolicy(keep);
            const QString path = QString::fromStdString(spec.path);
            connect(f.reset, &QToolButton::clicked, this, [this, path] { resetToDefault(path); });

            f.error = new QLabel;
            f.error->setObjectName(QStringLiteral("error:") + path);
            f.error->setWordWrap(true);
            f.error->setTextInteractionFlags(Qt::TextSelectableByMouse);
            f.error->hide();

            const Qt::Alignment labelAlign
                = spec.path == "description" ? Qt::AlignLeft | Qt::AlignTop : Qt::AlignLeft | Qt::AlignVCenter;
            grid->addWidget(f.label, row, 0, labelAlign);
            grid->addWidget(f.editor, row, 1);
            grid->addWidget(f.reset, row, 2, Qt::AlignVCenter);
            grid->addWidget(f.error, row + 1, 0, 1, 3);
            row += 2;
            fields_.push_back(f);
        }
        column->addWidget(body);
        grids.push_back(grid);
        connect(header, &QToolButton::toggled, body, [header, body](bool open) {
            body->setVisible(open);
            header->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        });
        // Folded until asked for: a lecture about the machine never needs it.
        if (explore)
            header->setChecked(false);
    }
    column->addStretch(1);
    scroll_->setWidget(content);

    // One label column for every section, wide enough for a label marked
    // pending (bold, with its dot), so the editors line up down the panel.
    const QFontMetrics bold(scaled(font(), 1.0, true));
    int labelWidth = 0;
    for (const Field& f : fields_)
        labelWidth = std::max(labelWidth, bold.horizontalAdvance(f.spec->label + QStringLiteral(" \u2022")));
    // Never so wide that the values are cut in a projector's narrow dock:
    // a longer label wraps onto a second line.
    labelWidth = std::min(labelWidth, fontMetrics().averageCharWidth() * 14);
    for (QGridLayout* grid : grids)
        grid->setColumnMinimumWidth(0, labelWidth);

    loading_ = true;
    for (Field& f : fields_)
        showValue(f, *valueAt(edits_.pending(), f.spec->path));
    loading_ = false;
    updateDecorations();
}

QWidget* ParametersPanel::makeEditor(const ParameterSpec& spec)
{
    // Fields live in a vector: handlers find theirs by path, never by address.
    const std::string path = spec.path;
    const auto edited = [this, path] {
        if (Field* f = field(path))
            onEdited(*f);
    };
    QWidget* editor = makeParameterEditor(spec);
    switch (spec.type) {
    case Type::Int:
    case Type::Double: {
        auto* box = static_cast<NumberBox*>(editor);
        connect(box->edit(), &QLineEdit::textChanged, this, [this, path, box] {
            Field* f = field(path);
            if (!f)
                return;
            // A typed number is taken when it is finished (Enter, leaving the
            // field) and an arrow's at once; on the way it is only checked:
            // typing 2000 must not run the CPUs at 2, 20 and 200 first, nor
            // leave the prefix of a refused number pending.
            if (box->isStepping())
                onEdited(*f);
            else
                preview(*f);
        });
        connect(box, &QAbstractSpinBox::editingFinished, this, [this, path] {
            Field* f = field(path);
            if (!f || loading_)
                return;
            onEdited(*f);
            // Once accepted, show the value as the scenario holds it ("016" reads 16).
            if (!edits_.attempted(path))
                showValue(*f, *valueAt(edits_.pending(), path));
        });
        break;
    }
    case Type::Bool:
        connect(static_cast<QCheckBox*>(editor), &QCheckBox::toggled, this, edited);
        break;
    case Type::Choice:
        connect(static_cast<QComboBox*>(editor), &QComboBox::currentIndexChanged, this, edited);
        break;
    case Type::String:
        if (auto* plain = qobject_cast<QPlainTextEdit*>(editor))
            connect(plain, &QPlainTextEdit::textChanged, this, edited);
        else
            connect(static_cast<QLineEdit*>(editor), &QLineEdit::textChanged, this, edited);
        break;
    }
    return editor;
}

ParametersPanel::Field* ParametersPanel::field(const std::string& path)
{
    const auto it = std::find_if(fields_.begin(), fields_.end(), [&](const Field& f) { return f.spec->path == path; });
    return it == fields_.end() ? nullptr : &*it;
}

const ParametersPanel::Field* ParametersPanel::field(const std::string& path) const
{
    return const_cast<ParametersPanel*>(this)->field(path);
}

void ParametersPanel::showValue(Field& f, const json::Value& value)
{
    const bool was = loading_;
    loading_ = true;
    showParameterValue(f.editor, *f.spec, value, edits_.pending());
    loading_ = was;
}

ParametersPanel::Attempt ParametersPanel::readEditor(const Field& f) const
{
    return readParameterEditor(f.editor, *f.spec);
}

void ParametersPanel::onEdited(Field& f)
{
    if (loading_)
        return;
    edits_.attempt(f.spec->path, readEditor(f));
    settle(&f);
}

void ParametersPanel::preview(Field& f)
{
    if (loading_)
        return;
    // Checked as typed, so a refusal shows at once; taken only by onEdited().
    Attempt attempt = readEditor(f);
    if (edits_.accepts(f.spec->path, attempt))
        edits_.forget(f.spec->path);
    else
        edits_.attempt(f.spec->path, std::move(attempt));
    settle(&f);
}

void ParametersPanel::settle(const Field* source)
{
    // Accept every attempt the scenario now takes, then bring the form in line.
    edits_.settle();
    syncEditors(source);
    showErrors();
    applyLive();
    updateDecorations();
    updateBanner();

    const QStringList pending = pendingPaths();
    const QStringList refused = refusedPaths();
    if (pending != lastPending_ || refused != lastRefused_) {
        lastPending_ = pending;
        lastRefused_ = refused;
        Q_EMIT pendingChanged();
    }
}

void ParametersPanel::syncEditors(const Field* source)
{
    // Editors of other fields follow what an accepted change implied (the
    // scheme list of a new index kind); the one being typed in is left alone.
    for (Field& f : fields_) {
        if (&f == source || edits_.attempted(f.spec->path) || f.editor->hasFocus())
            continue;
        const json::Value& value = *valueAt(edits_.pending(), f.spec->path);
        if (f.spec->type == Type::Choice) {
            showValue(f, value);
            continue;
        }
        const Attempt shown = readEditor(f);
        if (!shown.malformed.isEmpty() || !sameValue(shown.value, value))
            showValue(f, value);
    }
}

void ParametersPanel::showErrors()
{
    ParameterEdits::Refusals refusals = edits_.refusals([this](const std::string& path) {
        const Field* f = field(path);
        return f ? f->spec : nullptr;
    });
    std::map<std::string, QStringList>& messages = refusals.messages;
    const std::set<std::string>& refused = refusals.refused;
    for (Field& f : fields_) {
        const auto it = messages.find(f.spec->path);
        if (it == messages.end()) {
            f.error->clear();
            f.error->hide();
        } else {
            it->second.removeDuplicates();
            f.error->setText(it->second.join(QLatin1Char('\n')));
            f.error->show();
        }
        applyErrorLook(f, refused.count(f.spec->path) > 0);
    }
}

void ParametersPanel::applyErrorLook(Field& f, bool error)
{
    const QPalette base = palette();
    QPalette p = base;
    if (error) {
        const double k = colors::isDark(base) ? 0.32 : 0.16;
        p.setColor(QPalette::Base, mix(base.color(QPalette::Base), colors::lockBlocked(), k));
        p.setColor(QPalette::Button, mix(base.color(QPalette::Button), colors::lockBlocked(), k));
    }
    f.editor->setPalette(p);
    f.editor->setProperty("refused", error);
    QPalette e = base;
    e.setColor(QPalette::WindowText, errorColour(base));
    f.error->setPalette(e);
}

void ParametersPanel::applyLive()
{
    const Scenario& running = simulation_.scenario();
    const json::Value* ops = valueAt(edits_.pending(), "pacing.ops_per_second");
    const json::Value* stretch = valueAt(edits_.pending(), "pacing.hold_stretch_ns");
    const double opsPerSecond = ops->as_double();
    const std::uint64_t holdStretchNs = stretch->as_uint();
    if (opsPerSecond == running.engine.ops_per_second && holdStretchNs == running.engine.hold_stretch_ns)
        return;
    try {
        simulation_.setPacing(opsPerSecond, holdStretchNs);
    } catch (const std::invalid_argument& e) {
        // The scenario accepted these values, so the engine should too; if it
        // does not, say so at the field rather than lose the reason.
        if (Field* f = field("pacing.ops_per_second")) {
            f->error->setText(QString::fromUtf8(e.what()));
            f->error->show();
        }
        return;
    }
    edits_.setApplied("pacing.ops_per_second", *ops);
    edits_.setApplied("pacing.hold_stretch_ns", *stretch);
}

void ParametersPanel::updateDecorations()
{
    for (Field& f : fields_) {
        const json::Value& value = *valueAt(edits_.pending(), f.spec->path);
        const bool isDefault = !edits_.attempted(f.spec->path) && sameValue(value, f.spec->defaultValue);
        f.reset->setVisible(!isDefault);
        const bool pending = !f.spec->isLive() && !sameValue(value, *valueAt(edits_.base(), f.spec->path));
        QFont font = this->font();
        font.setBold(pending);
        f.label->setFont(font);
        f.label->setForegroundRole(pending ? QPalette::Link : QPalette::WindowText);
        f.label->setText(pending ? f.spec->label + QStringLiteral(" \u2022") : f.spec->label);
    }
}

void ParametersPanel::updateBanner()
{
    const QStringList pending = pendingPaths();
    if (pending.isEmpty()) {
        banner_->hide();
        bannerLabel_->clear();
        return;
    }
    QString text = tr("<b>Restart to apply:</b> %1").arg(pending.join(QStringLiteral(", ")));
    // A refused value is not part of the scenario: applying now would run
    // something other than what the form shows.
    const bool refused = edits_.hasAttempts();
    if (refused)
        text += tr("<br>Correct or reset the refused values first.");
    bannerLabel_->setText(text);
    applyButton_->setEnabled(!refused);
    banner_->show();
}

QString ParametersPanel::bannerText() const
{
    const QStringList pending = pendingPaths();
    return pending.isEmpty() ? QString() : tr("Restart to apply: %1").arg(pending.join(QStringLiteral(", ")));
}

QStringList ParametersPanel::pendingPaths() const
{
    return edits_.pendingPaths();
}

QStringList ParametersPanel::refusedPaths() const
{
    return edits_.refusedPaths();
}

Scenario ParametersPanel::pendingScenario() const
{
    return edits_.pendingScenario();
}

QWidget* ParametersPanel::editor(const QString& path) const
{
    const Field* f = field(path.toStdString());
    return f ? f->editor : nullptr;
}

QString ParametersPanel::errorText(const QString& path) const
{
    const Field* f = field(path.toStdString());
    return f && !f->error->isHidden() ? f->error->text() : QString();
}

void ParametersPanel::applyAndRestart()
{
    if (edits_.hasAttempts())
        return;
    const Scenario next = pendingScenario();
    try {
        simulation_.setScenario(next);
    } catch (const ScenarioError& e) {
        runError_->setText(QString::fromUtf8(e.what()));
        runError_->show();
    }
}

void ParametersPanel::discard()
{
    edits_.discard();
    loading_ = true;
    for (Field& f : fields_)
        showValue(f, *valueAt(edits_.pending(), f.spec->path));
    loading_ = false;
    settle(nullptr);
}

void ParametersPanel::resetToDefault(const QString& path)
{
    Field* f = field(path.toStdString());
    if (!f)
        return;
    showValue(*f, f->spec->defaultValue);
    edits_.attempt(f->spec->path, readEditor(*f));
    settle(f);
}

void ParametersPanel::onRunReset()
{
    // A reset of the same scenario keeps what is pending; a new scenario
    // (applied here or chosen elsewhere) replaces the form.
    const json::Value next = scenario_to_json(simulation_.scenario(), true);
    if (next == edits_.base())
        return;
    edits_.setBase(next);
    discard();
}

void ParametersPanel::onTicked()
{
    // Speed may also be set elsewhere (a toolbar slider): follow it.
    const Scenario& s = simulation_.scenario();
    const json::Value ops(s.engine.ops_per_second);
    const json::Value stretch(s.engine.hold_stretch_ns);
    if (sameValue(ops, *valueAt(edits_.base(), "pacing.ops_per_second"))
        && sameValue(stretch, *valueAt(edits_.base(), "pacing.hold_stretch_ns")))
        return;
    const std::pair<std::string, json::Value> live[]
        = { { "pacing.ops_per_second", ops }, { "pacing.hold_stretch_ns", stretch } };
    for (const auto& [path, value] : live) {
        edits_.setLive(path, value);
        Field* f = field(path);
        if (f && !edits_.attempted(path) && !f->editor->hasFocus())
            showValue(*f, value);
    }
    updateDecorations();
}

void ParametersPanel::onStateChanged()
{
    if (simulation_.state() == Simulation::State::Failed) {
        runError_->setText(tr("<b>The run could not start:</b> %1").arg(simulation_.error().toHtmlEscaped()));
        runError_->show();
    } else {
        runError_->hide();
    }
}

bool ParametersPanel::eventFilter(QObject* watched, QEvent* event)
{
    // The wheel scrolls the form; it changes a value only in the editor
    // being typed in, so scrolling past a spin box does not alter it.
    if (event->type() == QEvent::Wheel) {
        auto* w = qobject_cast<QWidget*>(watched);
        if (w && !w->hasFocus() && qobject_cast<QPlainTextEdit*>(w) == nullptr) {
            QCoreApplication::sendEvent(scroll_->verticalScrollBar(), event);
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void ParametersPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange)
        restyle();
}

void ParametersPanel::restyle()
{
    const QPalette p = palette();
    QPalette bp = p;
    const QColor fill = mix(p.color(QPalette::Window), colors::lockWanted(), colors::isDark(p) ? 0.22 : 0.28);
    bp.setColor(QPalette::Window, fill);
    bp.setColor(QPalette::WindowText, p.color(QPalette::WindowText));
    banner_->setPalette(bp);

    QPalette ep = p;
    ep.setColor(
        QPalette::Window, mix(p.color(QPalette::Window), colors::lockBlocked(), colors::isDark(p) ? 0.25 : 0.14));
    ep.setColor(QPalette::WindowText, p.color(QPalette::WindowText));
    runError_->setAutoFillBackground(true);
    runError_->setPalette(ep);

    for (Field& f : fields_)
        applyErrorLook(f, f.editor->property("refused").toBool());
}

} // namespace pcl::ui
