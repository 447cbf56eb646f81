// test_ui's main: `test_ui NAME [Qt Test's options]` runs the Qt Test class
// tests/ui/NAME.cpp registered (ui_test_registry.h), as the QTEST_MAIN of a
// program of its own would: a QApplication at 96 dpi named after the test
// (its settings and data paths its own, as a program's of that name were),
// the class's slots run by QTest::qExec with the options that follow.
#include "ui_test_registry.h"

#include <QApplication>
#include <QTest>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace pcl::ui::test {

namespace {
std::map<std::string, UiTestFactory>& registry()
{
    static std::map<std::string, UiTestFactory> tests;
    return tests;
}
} // namespace

bool register_ui_test(const char* file, UiTestFactory make)
{
    std::string name(file);
    if (const auto slash = name.find_last_of('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos)
        name.erase(dot);
    registry()[name] = make;
    return true;
}

UiTestFactory find_ui_test(const std::string& name)
{
    const auto it = registry().find(name);
    return it == registry().end() ? nullptr : it->second;
}

std::vector<std::string> ui_test_names()
{
    std::vector<std::string> names;
    for (const auto& [name, make] : registry())
        names.push_back(name);
    return names;
}

} // namespace pcl::ui::test

int main(int argc, char** argv)
{
    using namespace pcl::ui::test;
    const UiTestFactory make = argc >= 2 ? find_ui_test(argv[1]) : nullptr;
    if (!make) {
        std::fprintf(stderr, "usage: %s TEST [Qt Test's options]\n%s; the tests are:\n", argv[0],
            argc >= 2 ? ("no test is called '" + std::string(argv[1]) + "'").c_str() : "no test given");
        for (const std::string& name : ui_test_names())
            std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // The test's name takes the program's place in what Qt sees.
    const std::string name = argv[1];
    argv[1] = argv[0];
    --argc;
    ++argv;
    QApplication::setApplicationName(QString::fromStdString(name));
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    const std::unique_ptr<QObject> test = make();
    return QTest::qExec(test.get(), argc, argv);
}
