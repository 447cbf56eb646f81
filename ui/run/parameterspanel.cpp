#include "parameterspanel.h"

#include "colors.h"

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
#include <QRegularExpression>
#include <QRegularExpressionValidator>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <charconv>
#include <cmath>
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

/// A number editor with arrows that holds its value as text, so a 64-bit
/// integer or a double keeps every digit (QSpinBox stops at 2^31-1 and
/// QDoubleSpinBox rounds to its decimals). Typing may leave the documented
/// range: the panel shows the scenario's reason instead of silently
/// clamping. The arrows stay inside the range; the unit is drawn inside the
/// box on the right, as a spin box suffix, but is not part of the text.
class NumberBox : public QAbstractSpinBox {
public:
    NumberBox(const ParameterSpec& spec, QWidget* parent = nullptr)
        : QAbstractSpinBox(parent)
        , spec_(spec)
    {
        setAccelerated(true);
        setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
        setKeyboardTracking(true);
        setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setFocusPolicy(Qt::StrongFocus);
        if (!spec.unit.isEmpty()) {
            unit_ = new QLabel(spec.unit, lineEdit());
            unit_->setAttribute(Qt::WA_TransparentForMouseEvents);
            unit_->setForegroundRole(QPalette::PlaceholderText);
            lineEdit()->setTextMargins(0, 0, unit_->sizeHint().width() + 4, 0);
        }
    }

    QLineEdit* edit() const { return lineEdit(); }
    QString number() const { return lineEdit()->text().trimmed(); }
    void setNumber(const QString& text) { lineEdit()->setText(text); }

    QValidator::State validate(QString& input, int&) const override
    {
        // Digits (and for a real a point and an exponent) only: no field is
        // negative, and a value out of range is the scenario's to refuse.
        static const QRegularExpression kInt(QStringLiteral("^\\s*[0-9]*\\s*$"));
        static const QRegularExpression kReal(QStringLiteral("^\\s*[0-9]*\\.?[0-9]*([eE][-+]?[0-9]*)?\\s*$"));
        return (spec_.type == Type::Int ? kInt : kReal).match(input).hasMatch() ? QValidator::Acceptable
                                                                                : QValidator::Invalid;
    }

    void fixup(QString&) const override { }

    void stepBy(int steps) override
    {
        stepping_ = true;
        if (spec_.type == Type::Int)
            setNumber(QString::number(steppedInt(steps)));
        else
            setNumber(QString::number(steppedReal(steps), 'g', 12));
        stepping_ = false;
        selectAll();
    }
    /// Whether the text is changing by an arrow (a finished value) rather than by typing.
    bool isStepping() const { return stepping_; }

    QSize sizeHint() const override
    {
        QSize s = QAbstractSpinBox::sizeHint();
        s.setWidth(fontMetrics().horizontalAdvance(QStringLiteral("0")) * 12 + (unit_ ? unit_->sizeHint().width() : 0)
            + style()->pixelMetric(QStyle::PM_SpinBoxFrameWidth, nullptr, this) * 2 + 24);
        return s;
    }
    QSize minimumSizeHint() const override
    {
        QSize s = sizeHint();
        s.setWidth(s.width() / 2);
        return s;
    }

protected:
    StepEnabled stepEnabled() const override
    {
        if (isReadOnly())
            return StepNone;
        StepEnabled e = StepNone;
        if (spec_.type == Type::Int) {
            std::uint64_t v;
            if (!parseInt(v))
                return StepUpEnabled | StepDownEnabled;
            if (v < spec_.maxInt)
                e |= StepUpEnabled;
            if (v > spec_.minInt)
                e |= StepDownEnabled;
        } else {
            bool ok = false;
            const double v = number().toDouble(&ok);
            if (!ok)
                return StepUpEnabled | StepDownEnabled;
            if (v < spec_.maxReal)
                e |= StepUpEnabled;
            if (v > spec_.minReal)
                e |= StepDownEnabled;
        }
        return e;
    }

    void resizeEvent(QResizeEvent* event) override
    {
        QAbstractSpinBox::resizeEvent(event);
        if (unit_) {
            const QRect r = lineEdit()->rect();
            const QSize hint = unit_->sizeHint();
            unit_->setGeometry(r.right() - hint.width() - 2, r.top(), hint.width(), r.height());
        }
    }

private:
    bool parseInt(std::uint64_t& v) const
    {
        const QByteArray text = number().toLatin1();
        const auto [end, ec] = std::from_chars(text.constData(), text.constData() + text.size(), v);
        return ec == std::errc() && end == text.constData() + text.size() && !text.isEmpty();
    }

    std::uint64_t steppedInt(int steps) const
    {
        std::uint64_t v;
        if (!parseInt(v))
            return spec_.defaultValue.is_integer() ? spec_.defaultValue.as_uint() : spec_.minInt;
        for (; steps > 0; --steps) {
            std::uint64_t next = spec_.powerOfTwo ? (v == 0     ? 1
                                         : v > spec_.maxInt / 2 ? spec_.maxInt
                                                                : v * 2)
                                                  : (v >= spec_.maxInt ? spec_.maxInt : v + 1);
            v = std::min(std::max(next, spec_.minInt), spec_.maxInt);
        }
        for (; steps < 0; ++steps) {
            std::uint64_t next = spec_.powerOfTwo ? v / 2 : (v == 0 ? 0 : v - 1);
            v = std::max(std::min(next, spec_.maxInt), spec_.minInt);
        }
        return v;
    }

    double steppedReal(int steps) const
    {
        bool ok = false;
        double v = number().toDouble(&ok);
        if (!ok)
            v = spec_.defaultValue.is_number() ? spec_.defaultValue.as_double() : spec_.minReal;
        // Land on multiples of the step, so 0.25 + 0.05 reads 0.3, not 0.30000000000000004.
        v = std::round(v / spec_.step + steps) * spec_.step;
        return std::clamp(v, spec_.minReal, spec_.maxReal);
    }

    const ParameterSpec& spec_;
    QLabel* unit_ = nullptr;
    bool stepping_ = false;
};

/// Two scenario values are the same value (an integer read as 16 is the
/// 16 a field holds whether it was signed or not).
bool sameValue(const json::Value& a, const json::Value& b)
{
    if (a.is_integer() && b.is_integer()) {
        const bool an = a.type() == json::Value::Type::Int && a.as_int() < 0;
        const bool bn = b.type() == json::Value::Type::Int && b.as_int() < 0;
        if (an || bn)
            return an && bn && a.as_int() == b.as_int();
        return a.as_uint() == b.as_uint();
    }
    if (a.is_number() && b.is_number())
        return a.as_double() == b.as_double();
    return a == b;
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
{
    setObjectName(QStringLiteral("parametersPanel"));
    base_ = scenario_to_json(simulation_.scenario(), true);
    pending_ = base_;

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
    discardButton_ = new QPushButton(tr("Discard"));
    discardButton_->setToolTip(tr("Forget the pending changes; the form shows the running scenario again."));
    applyButton_ = new QPushButton(tr("Apply and restart"));
    applyButton_->setToolTip(tr("End the current run and build a new one with these parameters."));
    applyButton_->setDefault(true);
    buttons->addWidget(discardButton_);
    buttons->addWidget(applyButton_);
    bannerLayout->addLayout(buttons);
    banner_->hide();
    layout->addWidget(banner_);
    connect(applyButton_, &QPushButton::clicked, this, &ParametersPanel::applyAndRestart);
    connect(discardButton_, &QPushButton::clicked, this, &ParametersPanel::discard);

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
        if (group == QStringLiteral("Pacing")) {
            auto* note = new QLabel(tr("Speed and lock-hold stretch apply at once, while the run goes on."));
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
            // Narrow docks shrink the editors, never push the reset buttons out of view.
            f.editor->setMinimumWidth(fontMetrics().averageCharWidth() * 10);
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
    }
    column->addStretch(1);
    scroll_->setWidget(content);

    // One label column for every section, wide enough for a label marked
    // pending (bold, with its dot), so the editors line up down the panel.
    const QFontMetrics bold(scaled(font(), 1.0, true));
    int labelWidth = 0;
    for (const Field& f : fields_)
        labelWidth = std::max(labelWidth, bold.horizontalAdvance(f.spec->label + QStringLiteral(" \u2022")));
    for (QGridLayout* grid : grids)
        grid->setColumnMinimumWidth(0, labelWidth);

    loading_ = true;
    for (Field& f : fields_)
        showValue(f, *valueAt(pending_, f.spec->path));
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
    switch (spec.type) {
    case Type::Int:
    case Type::Double: {
        auto* box = new NumberBox(spec);
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
            if (!attempts_.count(path))
                showValue(*f, *valueAt(pending_, path));
        });
        return box;
    }
    case Type::Bool: {
        auto* box = new QCheckBox;
        connect(box, &QCheckBox::toggled, this, edited);
        return box;
    }
    case Type::Choice: {
        auto* box = new QComboBox;
        box->setFocusPolicy(Qt::StrongFocus);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
        connect(box, &QComboBox::currentIndexChanged, this, edited);
        return box;
    }
    case Type::String:
        if (spec.path == "description") {
            auto* edit = new QPlainTextEdit;
            edit->setTabChangesFocus(true);
            edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
            connect(edit, &QPlainTextEdit::textChanged, this, edited);
            return edit;
        } else {
            auto* edit = new QLineEdit;
            edit->setClearButtonEnabled(true);
            connect(edit, &QLineEdit::textChanged, this, edited);
            return edit;
        }
    }
    return nullptr;
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
    switch (f.spec->type) {
    case Type::Int:
    case Type::Double: {
        auto* box = static_cast<NumberBox*>(f.editor);
        const QString text = displayText(value);
        if (box->number() != text)
            box->setNumber(text);
        break;
    }
    case Type::Bool:
        static_cast<QCheckBox*>(f.editor)->setChecked(value.is_bool() && value.as_bool());
        break;
    case Type::Choice: {
        auto* box = static_cast<QComboBox*>(f.editor);
        const std::vector<std::string> choices = parameterChoices(*f.spec, pending_);
        const std::string current = value.is_string() ? value.as_string() : std::string();
        // Rebuild the items only when the set changed (index.scheme follows index.kind).
        bool same = box->count() == int(choices.size());
        for (int i = 0; same && i < box->count(); ++i)
            same = box->itemData(i).toString().toStdString() == choices[std::size_t(i)]
                && box->itemText(i) == choiceText(*f.spec, choices[std::size_t(i)], pending_);
        if (!same) {
            box->clear();
            for (const std::string& c : choices)
                box->addItem(choiceText(*f.spec, c, pending_), QString::fromStdString(c));
        }
        box->setCurrentIndex(box->findData(QString::fromStdString(current)));
        break;
    }
    case Type::String: {
        const QString text = displayText(value);
        if (auto* plain = qobject_cast<QPlainTextEdit*>(f.editor)) {
            if (plain->toPlainText() != text)
                plain->setPlainText(text);
        } else {
            auto* line = static_cast<QLineEdit*>(f.editor);
            if (line->text() != text) {
                line->setText(text);
                line->setCursorPosition(0); // a long title reads from its start
            }
        }
        break;
    }
    }
    loading_ = was;
}

ParametersPanel::Attempt ParametersPanel::readEditor(const Field& f) const
{
    const ParameterSpec& spec = *f.spec;
    switch (spec.type) {
    case Type::Int:
    case Type::Double: {
        const QString text = static_cast<NumberBox*>(f.editor)->number();
        const QString path = QString::fromStdString(spec.path);
        if (text.isEmpty())
            return { json::Value(),
                tr("%1: enter a value (the default is %2)").arg(path, displayText(spec.defaultValue)) };
        try {
            // Parsed as JSON, as a file would be: an integer keeps all 64
            // bits, one beyond them becomes a number the scenario refuses
            // with the field's range.
            json::Value v = json::parse(text.toStdString());
            if (v.is_number())
                return { std::move(v), QString() };
        } catch (const json::ParseError&) {
        }
        return { json::Value(), tr("%1: '%2' is not a number").arg(path, text) };
    }
    case Type::Bool:
        return { json::Value(static_cast<QCheckBox*>(f.editor)->isChecked()), QString() };
    case Type::Choice: {
        auto* box = static_cast<QComboBox*>(f.editor);
        return { json::Value(box->currentData().toString().toStdString()), QString() };
    }
    case Type::String:
        if (auto* plain = qobject_cast<QPlainTextEdit*>(f.editor))
            return { json::Value(plain->toPlainText().toStdString()), QString() };
        return { json::Value(static_cast<QLineEdit*>(f.editor)->text().toStdString()), QString() };
    }
    return {};
}

json::Value ParametersPanel::candidate(const std::string& path, const json::Value& value) const
{
    json::Value doc = pending_;
    setValueAt(doc, path, value);
    if (path == "index.kind") {
        // The scheme of one kind is not a scheme of another: the new kind
        // starts from its own default rather than refusing the change.
        const std::vector<std::string> schemes = parameterChoices(*findParameter("index.scheme"), doc);
        const json::Value* scheme = valueAt(doc, "index.scheme");
        if (scheme && scheme->is_string()
            && std::find(schemes.begin(), schemes.end(), scheme->as_string()) == schemes.end())
            setValueAt(doc, "index.scheme", json::Value(""));
    }
    if (path == "device.model" && value.is_string()) {
        // A model is a preset of the device's figures: choosing one sets
        // them all (a figure changed afterwards stays changed).
        try {
            const BlockDeviceConfig preset = BlockDeviceConfig::preset(value.as_string());
            setValueAt(doc, "device.request_ns", json::Value(preset.request_ns));
            setValueAt(doc, "device.page_ns", json::Value(preset.page_ns));
            setValueAt(doc, "device.seek_ns", json::Value(preset.seek_ns));
            setValueAt(doc, "device.rotation_ns", json::Value(preset.rotation_ns));
            setValueAt(doc, "device.queue_depth", json::Value(preset.queue_depth));
            setValueAt(doc, "device.max_request_pages", json::Value(preset.max_request_pages));
            setValueAt(doc, "device.nomerges", json::Value(preset.nomerges));
        } catch (const std::invalid_argument&) {
            // Not a model: the parse names device.model.
        }
    }
    return doc;
}

void ParametersPanel::onEdited(Field& f)
{
    if (loading_)
        return;
    attempts_[f.spec->path] = readEditor(f);
    settle(&f);
}

void ParametersPanel::preview(Field& f)
{
    if (loading_)
        return;
    // Checked as typed, so a refusal shows at once; taken only by onEdited().
    Attempt attempt = readEditor(f);
    bool valid = attempt.malformed.isEmpty();
    if (valid) {
        try {
            scenario_from_json(candidate(f.spec->path, attempt.value));
        } catch (const ScenarioError&) {
            valid = false;
        }
    }
    if (valid)
        attempts_.erase(f.spec->path);
    else
        attempts_[f.spec->path] = std::move(attempt);
    settle(&f);
}

void ParametersPanel::settle(const Field* source)
{
    // Accept every attempt the scenario now takes, until none more is: a
    // value refused for its neighbour's sake (a stride beyond the file) is
    // taken once the neighbour is fixed.
    for (bool progress = true; progress;) {
        progress = false;
        for (auto it = attempts_.begin(); it != attempts_.end();) {
            if (!it->second.malformed.isEmpty()) {
                ++it;
                continue;
            }
            try {
                const Scenario s = scenario_from_json(candidate(it->first, it->second.value));
                pending_ = scenario_to_json(s, true);
                it = attempts_.erase(it);
                progress = true;
            } catch (const ScenarioError&) {
                ++it;
            }
        }
    }
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
        if (&f == source || attempts_.count(f.spec->path) || f.editor->hasFocus())
            continue;
        const json::Value& value = *valueAt(pending_, f.spec->path);
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
    std::map<std::string, QStringList> messages;
    std::set<std::string> refused;
    for (const auto& [path, attempt] : attempts_) {
        refused.insert(path);
        if (!attempt.malformed.isEmpty()) {
            messages[path] << attempt.malformed;
            continue;
        }
        try {
            scenario_from_json(candidate(path, attempt.value));
        } catch (const ScenarioError& e) {
            const QString what = QString::fromUtf8(e.what());
            const Field* named = field(e.field());
            if (!named || e.field() == path) {
                messages[path] << what;
                continue;
            }
            // A cross-field rule: the reason goes under the field it names,
            // and the field that was typed in says why it is not applied.
            messages[e.field()] << what;
            refused.insert(e.field());
            messages[path] << tr("Not applied: it conflicts with %1 (%2).")
                                  .arg(named->spec->label, QString::fromStdString(e.field()));
        }
    }
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
    const json::Value* ops = valueAt(pending_, "pacing.ops_per_second");
    const json::Value* stretch = valueAt(pending_, "pacing.hold_stretch_ns");
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
    setValueAt(base_, "pacing.ops_per_second", *ops);
    setValueAt(base_, "pacing.hold_stretch_ns", *stretch);
}

void ParametersPanel::updateDecorations()
{
    for (Field& f : fields_) {
        const json::Value& value = *valueAt(pending_, f.spec->path);
        const bool isDefault = attempts_.count(f.spec->path) == 0 && sameValue(value, f.spec->defaultValue);
        f.reset->setVisible(!isDefault);
        const bool pending = !f.spec->isLive() && !sameValue(value, *valueAt(base_, f.spec->path));
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
    const bool refused = !attempts_.empty();
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
    QStringList paths;
    for (const ParameterSpec& spec : parameterSchema()) {
        if (spec.apply != ParameterSpec::Apply::Restart)
            continue;
        const json::Value* now = valueAt(base_, spec.path);
        const json::Value* next = valueAt(pending_, spec.path);
        if (now && next && !sameValue(*now, *next))
            paths << QString::fromStdString(spec.path);
    }
    return paths;
}

QStringList ParametersPanel::refusedPaths() const
{
    QStringList paths;
    for (const auto& [path, attempt] : attempts_)
        paths << QString::fromStdString(path);
    return paths;
}

Scenario ParametersPanel::pendingScenario() const
{
    return scenario_from_json(pending_);
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
    if (!attempts_.empty())
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
    attempts_.clear();
    pending_ = base_;
    loading_ = true;
    for (Field& f : fields_)
        showValue(f, *valueAt(pending_, f.spec->path));
    loading_ = false;
    settle(nullptr);
}

void ParametersPanel::resetToDefault(const QString& path)
{
    Field* f = field(path.toStdString());
    if (!f)
        return;
    showValue(*f, f->spec->defaultValue);
    attempts_[f->spec->path] = readEditor(*f);
    settle(f);
}

void ParametersPanel::onRunReset()
{
    // A reset of the same scenario keeps what is pending; a new scenario
    // (applied here or chosen elsewhere) replaces the form.
    const json::Value next = scenario_to_json(simulation_.scenario(), true);
    if (next == base_)
        return;
    base_ = next;
    discard();
}

void ParametersPanel::onTicked()
{
    // Speed may also be set elsewhere (a toolbar slider): follow it.
    const Scenario& s = simulation_.scenario();
    const json::Value ops(s.engine.ops_per_second);
    const json::Value stretch(s.engine.hold_stretch_ns);
    if (sameValue(ops, *valueAt(base_, "pacing.ops_per_second"))
        && sameValue(stretch, *valueAt(base_, "pacing.hold_stretch_ns")))
        return;
    const std::pair<std::string, json::Value> live[]
        = { { "pacing.ops_per_second", ops }, { "pacing.hold_stretch_ns", stretch } };
    for (const auto& [path, value] : live) {
        setValueAt(base_, path, value);
        setValueAt(pending_, path, value);
        Field* f = field(path);
        if (f && !attempts_.count(path) && !f->editor->hasFocus())
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
