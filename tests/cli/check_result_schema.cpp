// check_result_schema SCHEMA FILE...: whether each result file a command
// wrote (run --out's summary.json, sweep's cell-K/summary.json, compare's
// a/ and b/) validates against the documented schema, with the same check
// as the core tests (json_schema_check.h). Prints every problem with the
// file and the member's path; exit 0 when all are valid, 1 otherwise, 2
// when a file cannot be read or parsed.
#include "json_schema_check.h"

#include "lib/file_io.h"
#include "lib/json.h"

#include <exception>
#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::cerr << "usage: check_result_schema SCHEMA.json RESULT.json...\n";
        return 2;
    }
    pcl::json::Value schema;
    try {
        schema = pcl::json::parse(pcl::read_file(argv[1]));
    } catch (const std::exception& e) {
        std::cerr << argv[1] << ": " << e.what() << '\n';
        return 2;
    }
    int rc = 0;
    for (int i = 2; i < argc; ++i) {
        try {
            const auto problems = pcl::test::schema_problems(pcl::json::parse(pcl::read_file(argv[i])), schema);
            for (const std::string& p : problems)
                std::cout << argv[i] << ": " << p << '\n';
            if (!problems.empty())
                rc = rc ? rc : 1;
        } catch (const std::exception& e) {
            std::cerr << argv[i] << ": " << e.what() << '\n';
            rc = 2;
        }
    }
    return rc;
}
