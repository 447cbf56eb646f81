// The ui tests are one program (test_ui, tests/ui/CMakeLists.txt): each
// tests/ui/test_*.cpp registers its Qt Test class under its file's name with
// PCL_UI_TEST(Class) where a program of its own would say QTEST_MAIN(Class),
// and `test_ui test_charts [Qt Test's options]` runs that one class.
#pragma once

#include <QObject>

#include <memory>
#include <string>
#include <vector>

namespace pcl::ui::test {

using UiTestFactory = std::unique_ptr<QObject> (*)();

/// Registers the test class @make makes under the name of @file (its base
/// name, "test_charts" for ".../test_charts.cpp"); true.
bool register_ui_test(const char* file, UiTestFactory make);

/// The factory registered as @name, or null.
UiTestFactory find_ui_test(const std::string& name);

/// Every registered name, in order.
std::vector<std::string> ui_test_names();

} // namespace pcl::ui::test

#define PCL_UI_TEST(TestClass)                                                                                         \
    namespace {                                                                                                        \
    [[maybe_unused]] const bool registered_##TestClass                                                                 \
        = ::pcl::ui::test::register_ui_test(__FILE__, [] { return std::unique_ptr<QObject>(new TestClass); });         \
    }
