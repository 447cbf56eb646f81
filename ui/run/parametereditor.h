// The editor of one field of the Parameters panel, by the field's type: a
// NumberBox for a number, a check box for a switch, a combo box of its
// choices, a line for a string (a few lines for the description); and the
// value it shows, written into it and read back as a scenario value.
#pragma once

#include "lib/json.h"
#include "run/parameterschema.h"

#include <QString>

class QWidget;

namespace pcl::ui {

/// What an editor holds: a scenario value, or why its text is none.
struct EditorValue {
    json::Value value;
    QString malformed; ///< why the text is not a value at all; empty when it is
};

/// A new editor for @spec, which must outlive it. Signals, names and
/// tooltips are the panel's to connect and set.
QWidget* makeParameterEditor(const ParameterSpec& spec);
/// Shows @value in @editor, an editor of @spec; @doc, the scenario the form
/// shows, says which choices a choice field offers (index.scheme follows
/// index.kind).
void showParameterValue(QWidget* editor, const ParameterSpec& spec, const json::Value& value, const json::Value& doc);
/// What @editor, an editor of @spec, holds.
EditorValue readParameterEditor(const QWidget* editor, const ParameterSpec& spec);

} // namespace pcl::ui
