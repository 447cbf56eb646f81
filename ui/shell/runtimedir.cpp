#include "shell/runtimedir.h"

#include <QByteArray>
#include <QtGlobal>

#include <cerrno>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace pcl::ui {

void prepareRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const std::string dir = "/tmp/runtime-" + std::to_string(::getuid());
    struct stat st { };
    if ((::mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) && ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode)
        && st.st_uid == ::getuid() && (st.st_mode & 0777) == 0700)
        qputenv("XDG_RUNTIME_DIR", QByteArray::fromStdString(dir));
}

} // namespace pcl::ui
