// Saving a file the user names: the one way every export of the application
// asks where, asks before it replaces a file, writes, and says why it could
// not.
//
// The file dialog starts in the folder the last export went to and
// suggests a name that says what the file is. It is told not to ask about
// replacing a file itself: saveFile() asks, every time, whoever chose the
// path (a dialog, a test, a script), so that no export can replace a file
// without a yes. Writing goes through QSaveFile: the new file is written
// beside the old one and renamed over it only when it is whole, so a failed
// write leaves the old file as it was.
#pragma once

#include <QByteArray>
#include <QString>

#include <functional>

class QWidget;

namespace pcl::ui {

/// How an export ended.
enum class SaveResult {
    Saved,    ///< the file was written
    Declined, ///< the file exists and the user chose to keep it
    Failed,   ///< the file could not be written; the error says why
};

/// The folder the file dialog opens in: where the last file was saved
/// (remembered across runs), the home folder before that.
QString saveDirectory();
/// Remembers the folder of @path for the next dialog.
void rememberSaveDirectory(const QString& path);

/// Asks where to save: a dialog titled @title in saveDirectory() with
/// @fileName suggested and the files of @filter ("PNG image (*.png);;SVG
/// image (*.svg)"). A name typed without an extension gets the chosen
/// filter's. Empty when the user cancels. The dialog never asks about
/// replacing a file: saveFile() does.
QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter);

/// The question asked before an existing file is replaced: true to replace it.
using ReplaceQuestion = std::function<bool(QWidget* parent, const QString& path)>;
/// Sets who answers the question (a test gives its answer here); an empty
/// function brings back the message box.
void setReplaceQuestion(ReplaceQuestion question);
/// Whether @path may be written: it does not exist, or the user agreed to
/// replace it.
bool mayReplace(QWidget* parent, const QString& path);

/// Writes a file at @path; false with the reason in @error.
using FileWriter = std::function<bool(const QString& path, QString* error)>;
/// Writes @path with @write once mayReplace() allows it, remembering its
/// folder when it was saved. @error says why when Failed.
SaveResult saveFile(QWidget* parent, const QString& path, const FileWriter& write, QString* error);

/// Writes @bytes to @path atomically (QSaveFile), every byte checked;
/// false with @error saying why, the file at @path untouched.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

/// Tells the user that @what ("the run's result") could not be saved to
/// @path and why, and that nothing already there was lost.
void showSaveFailure(
    QWidget* parent, const QString& title, const QString& what, const QString& path, const QString& error);

/// @text as a file name: lower case, words joined by '-', only letters,
/// digits, '-', '_' and '.'; "run" when nothing is left.
QString fileNameStem(const QString& text);

} // namespace pcl::ui
