// The Parameters panel's editors: one per field type, with the value it
// shows written and read as a scenario value.
#include "run/parametereditor.h"

#include "run/numberbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QLineEdit>
#include <QPlainTextEdit>

#include <vector>

namespace pcl::ui {

namespace {

using Type = ParameterSpec::Type;

QString tr(const char* text)
{
    return QCoreApplication::translate("pcl::ui::ParametersPanel", text);
}

} // namespace

QWidget* makeParameterEditor(const ParameterSpec& spec)
{
    switch (spec.type) {
    case Type::Int:
    case Type::Double:
        return new NumberBox(spec);
    case Type::Bool:
        return new QCheckBox;
    case Type::Choice: {
        auto* box = new QComboBox;
        box->setFocusPolicy(Qt::StrongFocus);
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
        return box;
    }
    case Type::String:
        if (spec.path == "description") {
            auto* edit = new QPlainTextEdit;
            edit->setTabChangesFocus(true);
            edit->setFixedHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
            return edit;
        } else {
            auto* edit = new QLineEdit;
            edit->setClearButtonEnabled(true);
            return edit;
        }
    }
    return nullptr;
}

void showParameterValue(QWidget* editor, const ParameterSpec& spec, const json::Value& value, const json::Value& doc)
{
    switch (spec.type) {
    case Type::Int:
    case Type::Double: {
        auto* box = static_cast<NumberBox*>(editor);
        const QString text = displayText(value);
        if (box->number() != text)
            box->setNumber(text);
        break;
    }
    case Type::Bool:
        static_cast<QCheckBox*>(editor)->setChecked(value.is_bool() && value.as_bool());
        break;
    case Type::Choice: {
        auto* box = static_cast<QComboBox*>(editor);
        const std::vector<std::string> choices = parameterChoices(spec, doc);
        const std::string current = value.is_string() ? value.as_string() : std::string();
        // Rebuild the items only when the set changed (index.scheme follows index.kind).
        bool same = box->count() == int(choices.size());
        for (int i = 0; same && i < box->count(); ++i)
            same = box->itemData(i).toString().toStdString() == choices[std::size_t(i)]
                && box->itemText(i) == choiceText(spec, choices[std::size_t(i)], doc);
        if (!same) {
            box->clear();
            for (const std::string& c : choices)
                box->addItem(choiceText(spec, c, doc), QString::fromStdString(c));
        }
        box->setCurrentIndex(box->findData(QString::fromStdString(current)));
        break;
    }
    case Type::String: {
        const QString text = displayText(value);
        if (auto* plain = qobject_cast<QPlainTextEdit*>(editor)) {
            if (plain->toPlainText() != text)
                plain->setPlainText(text);
        } else {
            auto* line = static_cast<QLineEdit*>(editor);
            if (line->text() != text) {
                line->setText(text);
                line->setCursorPosition(0); // a long title reads from its start
            }
        }
        break;
    }
    }
}

EditorValue readParameterEditor(const QWidget* editor, const ParameterSpec& spec)
{
    switch (spec.type) {
    case Type::Int:
    case Type::Double: {
        const QString text = static_cast<const NumberBox*>(editor)->number();
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
        return { json::Value(static_cast<const QCheckBox*>(editor)->isChecked()), QString() };
    case Type::Choice: {
        auto* box = static_cast<const QComboBox*>(editor);
        return { json::Value(box->currentData().toString().toStdString()), QString() };
    }
    case Type::String:
        if (auto* plain = qobject_cast<const QPlainTextEdit*>(editor))
            return { json::Value(plain->toPlainText().toStdString()), QString() };
        return { json::Value(static_cast<const QLineEdit*>(editor)->text().toStdString()), QString() };
    }
    return {};
}

} // namespace pcl::ui
