// Command-line options of the benchmark commands (`pagecache-lab-cli bench ...`).
//
// A command declares its options, parses its arguments, then reads typed
// values:
//
//     ArgParser p("bench locks");
//     p.add_uint("iters", 1 << 20, 1, 1ull << 32, "N", "lock+unlock pairs per thread");
//     p.add_string("csv", "", "FILE", "also write the results as CSV to FILE");
//     p.add_flag("quiet", "no progress lines on stderr");
//     p.describe("[options]", "Times lock+unlock of each lock algorithm.");
//     if (auto code = p.parse_command(args, out, err))
//         return *code;                     // --help printed (0) or an error (2)
//     const std::uint64_t iters = p.get_uint("iters");
//
// Syntax: `--name value` or `--name=value`; a flag takes no value; `--help`
// (or `-h`) is always accepted. Giving an option twice keeps the last value,
// except a list option, which keeps every value given, in order. Words that
// are not options (a file name, say) are refused unless the command allows
// operands, which parse() then keeps in order.
// Unsigned integers are decimal or hexadecimal (`0x1f`), decimal ones with an
// optional binary suffix: k = 2^10, M = 2^20, G = 2^30 (so `1M` = 1048576,
// the page count of a 4 GB file). Every problem - unknown option, missing or
// malformed value, value out of range - is an ArgError whose message names
// the option (and the allowed range); commands print it and exit with 2.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace pcl {

/// A bad command line. The message is complete and meant for the user.
class ArgError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

/// Parses an unsigned integer in the syntax above ("4k", "0x10", "1M").
/// Throws ArgError naming @what (e.g. "--pages") if @text is not one.
std::uint64_t parse_uint(std::string_view text, std::string_view what);

/// Formats @v with the largest binary suffix that divides it exactly
/// (1048576 -> "1M", 3072 -> "3k", 1000 -> "1000"), so parse_uint reads it back.
std::string format_uint(std::uint64_t v);

/// The name of an output file that means standard output.
inline constexpr const char* kStdoutPath = "-";

class ArgParser {
public:
    /// @command names the command in messages and usage, e.g. "bench indexes".
    explicit ArgParser(std::string command);

    /// `--name N`: an unsigned integer in [min, max], @def when not given.
    void add_uint(std::string name, std::uint64_t def, std::uint64_t min, std::uint64_t max, std::string metavar,
        std::string help);
    /// `--name X`: a finite real number in [min, max], @def when not given.
    void add_double(std::string name, double def, double min, double max, std::string metavar, std::string help);
    /// `--name S`: a non-empty string, @def (may be empty) when not given.
    void add_string(std::string name, std::string def, std::string metavar, std::string help);
    /// `--name`: a flag, false when not given.
    void add_flag(std::string name, std::string help);
    /// `--name FILE`: a file the command writes ("" when not given), or "-"
    /// for standard output (at most one output of a command); parse() checks
    /// that a file can be created (check_writable_path), so that a long run
    /// does not fail at its end.
    void add_output(std::string name, std::string metavar, std::string help);
    /// `--name S`, repeatable: every occurrence adds its (non-empty) value,
    /// in order; an empty list when not given.
    void add_list(std::string name, std::string metavar, std::string help);
    /// Lets parse() keep the words that are not options (operands, such as a
    /// file name; "-" alone is one) for operands() instead of refusing them.
    void allow_operands() { operands_allowed_ = true; }

    /// Parses @args (the words after the command). Throws ArgError; on
    /// success every option holds its given or default value.
    void parse(const std::vector<std::string>& args);

    /// What help() says: the words after the command on its usage line
    /// (@synopsis, e.g. "[options]" or "SCENARIO [options]"), what it does
    /// (@description, whole lines), and what follows the options (@epilogue,
    /// such as the exit codes).
    void describe(std::string synopsis, std::string description, std::string epilogue = {});
    /// The command's whole `--help`: usage line, description, options, epilogue.
    std::string help() const;

    /// Parses @args as the whole command line of the command, then runs
    /// @check (which may throw ArgError for what the options cannot say
    /// alone). With `--help`, prints help() to @out and returns 0; on an
    /// ArgError, reports it to @err and returns 2; nullopt when the command
    /// should go on.
    std::optional<int> parse_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const std::function<void(const ArgParser&)>& check = {});

    /// Whether `--help` or `-h` was among the arguments.
    bool help_requested() const { return help_; }
    /// Whether the option was on the command line (rather than defaulted).
    bool given(std::string_view name) const;

    /// Typed values. Asking for an undeclared name or the wrong type is a
    /// programming error: std::logic_error.
    std::uint64_t get_uint(std::string_view name) const;
    double get_double(std::string_view name) const;
    const std::string& get_string(std::string_view name) const;
    bool get_flag(std::string_view name) const;
    const std::vector<std::string>& get_list(std::string_view name) const;
    /// The operands of the last parse(), in order (none unless allow_operands()).
    const std::vector<std::string>& operands() const { return operands_; }

    /// One line per option: `  --name METAVAR  help (default X; range)`.
    std::string usage() const;
    /// The command name given to the constructor.
    const std::string& command() const { return command_; }

private:
    enum class Type { Uint, Double, String, Flag, List };
    /// A numeric option's range, default and value.
    template <typename T> struct Range {
        T min = 0, max = 0, def = 0, val = 0;
    };
    struct Option {
        std::string name; ///< without the leading "--"
        Type type;
        std::string metavar; ///< how usage names the value, e.g. "N"
        std::string help;
        Range<std::uint64_t> u;        ///< Uint
        Range<double> d;               ///< Double
        std::string sdef, sval;        ///< String: default, value
        bool flag = false;             ///< Flag: value
        std::vector<std::string> list; ///< List: values, in order
        std::string def_text;          ///< the default as shown in usage
        bool given = false;            ///< set by parse()
        bool output = false;           ///< String: a file to be written
    };
    Option& declare(std::string name, Type type, std::string metavar, std::string help);
    /// Declares a numeric option whose value lives in @range of its Option.
    template <typename T>
    void declare_ranged(std::string name, Type type, Range<T> Option::*range, Range<T> values, std::string def_text,
        std::string metavar, std::string help);
    const Option& find(std::string_view name, Type type) const;
    Option* lookup(std::string_view name);
    void assign(Option& o, std::string_view value);

    std::string command_;
    std::string synopsis_ = "[options]", description_, epilogue_;
    std::vector<Option> options_; ///< in declaration order (the order of usage())
    bool help_ = false;
    bool operands_allowed_ = false;
    std::vector<std::string> operands_; ///< set by parse()
};

/// Throws ArgError naming @what (e.g. "--csv") unless a file can be created
/// at @path: its directory exists and is writable and the path is not a
/// directory. Commands check output paths before a long run, not after it.
void check_writable_path(const std::string& path, std::string_view what);

/// The program whose subcommands use these parsers, for messages.
inline constexpr std::string_view kProgram = "pagecache-lab-cli";

/// Prints `pagecache-lab-cli <command>: <message>` and a `--help` hint to
/// @err and returns 2, the exit code for a bad command line.
int report_arg_error(const ArgParser& parser, const ArgError& error, std::ostream& err);

} // namespace pcl
