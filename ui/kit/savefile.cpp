#include "kit/savefile.h"

#include "lib/file_io.h"

#include <cstring>
#include <string_view>

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>

namespace pcl::ui {

namespace {

const QString kDirectoryKey = QStringLiteral("Export/directory");

ReplaceQuestion& replaceQuestion()
{
    static ReplaceQuestion question;
    return question;
}

bool askToReplace(QWidget* parent, const QString& path)
{
    const QFileInfo file(path);
    QMessageBox box(QMessageBox::Question, QObject::tr("Replace the file?"),
        QObject::tr("Replace %1?").arg(file.fileName()), QMessageBox::NoButton, parent);
    box.setInformativeText(QObject::tr("A file of that name is already in %1.\nReplacing it loses what it holds now.")
                               .arg(QDir::toNativeSeparators(file.absolutePath())));
    QPushButton* replace = box.addButton(QObject::tr("Replace"), QMessageBox::DestructiveRole);
    box.setDefaultButton(box.addButton(QObject::tr("Keep it"), QMessageBox::RejectRole));
    box.exec();
    return box.clickedButton() == replace;
}

/// The first extension of @filter's chosen part: "png" for "PNG image (*.png)".
QString filterSuffix(const QString& filter)
{
    static const QRegularExpression kPattern(QStringLiteral("\\*\\.([A-Za-z0-9]+)"));
    const QRegularExpressionMatch m = kPattern.match(filter);
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

QString saveDirectory()
{
    const QString dir = QSettings().value(kDirectoryKey).toString();
    return !dir.isEmpty() && QFileInfo(dir).isDir() ? dir : QDir::homePath();
}

void rememberSaveDirectory(const QString& path)
{
    QSettings().setValue(kDirectoryKey, QFileInfo(path).absolutePath());
}

QString askSavePath(QWidget* parent, const QString& title, const QString& fileName, const QString& filter)
{
    QString chosen;
    QString path = QFileDialog::getSaveFileName(
        parent, title, QDir(saveDirectory()).filePath(fileName), filter, &chosen, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return {};
    const QString suffix = filterSuffix(chosen.isEmpty() ? filter : chosen);
    if (!suffix.isEmpty() && QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    return path;
}

void setReplaceQuestion(ReplaceQuestion question)
{
    replaceQuestion() = std::move(question);
}

bool mayReplace(QWidget* parent, const QString& path)
{
    if (!QFileInfo::exists(path))
        return true;
    const ReplaceQuestion& ask = replaceQuestion();
    return ask ? ask(parent, path) : askToReplace(parent, path);
}

SaveResult saveFile(QWidget* parent, const QString& path, const FileWriter& write, QString* error)
{
    if (!mayReplace(parent, path))
        return SaveResult::Declined;
    QString why;
    if (!write(path, &why)) {
        if (error)
            *error = why;
        return SaveResult::Failed;
    }
    rememberSaveDirectory(path);
    return SaveResult::Saved;
}

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    // The core's writer, not QSaveFile: its temporary twin is one a second
    // Ctrl+C of the command line removes (lib/scratch_paths.h), and every
    // byte is written and flushed before the rename.
    const int e = pcl::try_write_file_atomically(
        QFile::encodeName(path).toStdString(), std::string_view(bytes.constData(), std::size_t(bytes.size())));
    if (e && error)
        *error = QString::fromLocal8Bit(std::strerror(e));
    return e == 0;
}

void showSaveFailure(
    QWidget* parent, const QString& title, const QString& what, const QString& path, const QString& error)
{
    // A writer's reason may begin by naming the file, which the box
    // names already.
    QString why = error;
    for (const QString& named : { path, QDir::toNativeSeparators(path) })
        if (const QString prefix = QObject::tr("Cannot write %1: ").arg(named); why.startsWith(prefix))
            why.remove(0, prefix.size());
    QMessageBox box(QMessageBox::Warning, title, QObject::tr("Page Cache Lab could not save %1.").arg(what),
        QMessageBox::Ok, parent);
    box.setInformativeText(QObject::tr("File: %1\nWhy: %2\n\nNothing was lost: a file already there is as it was, "
                                       "and what you wanted to save is still here to save somewhere else.")
                               .arg(QDir::toNativeSeparators(path), why));
    box.exec();
}

QString fileNameStem(const QString& text)
{
    QString out;
    for (const QChar c : text.toLower()) {
        if (c.isLetterOrNumber() && c.unicode() < 128)
            out += c;
        else if ((c == QLatin1Char('_') || c == QLatin1Char('.')) && !out.isEmpty())
            out += c;
        else if (!out.isEmpty() && !out.endsWith(QLatin1Char('-')))
            out += QLatin1Char('-');
    }
    while (out.endsWith(QLatin1Char('-')) || out.endsWith(QLatin1Char('.')))
        out.chop(1);
    return out.isEmpty() ? QStringLiteral("run") : out;
}

} // namespace pcl::ui
