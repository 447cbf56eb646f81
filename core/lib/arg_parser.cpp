#include "lib/arg_parser.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <ostream>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace pcl {

namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

/// The width of the help's lines.
constexpr std::size_t kLineWidth = 100;

/// @line followed by @text's words, broken at word boundaries so that no
/// line passes kLineWidth (a longer word stands alone), each new line
/// indented by @indent; without a final newline. A line break in @text is
/// a space like any other: the wrapping places the breaks.
std::string wrap_words(std::string line, std::string_view text, std::size_t indent)
{
    std::string s;
    bool first_word = true; // the first word goes on @line whatever its length
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t end = std::min(text.find_first_of(" \n", at), text.size());
        const std::string_view word = text.substr(at, end - at);
        at = end + 1;
        if (word.empty())
            continue;
        if (!first_word && line.size() + 1 + word.size() > kLineWidth) {
            s += line + "\n";
            line = std::string(indent, ' ');
            first_word = true;
        }
        line += (first_word ? "" : " ") + std::string(word);
        first_word = false;
    }
    return s + line;
}

std::string quoted(std::string_view s)
{
    return "'" + std::string(s) + "'";
}

[[noreturn]] void not_uint(std::string_view text, std::string_view what)
{
    throw ArgError(
        std::string(what) + ": " + quoted(text) + " is not an unsigned integer (forms: 42, 4k, 1M, 2G, 0x2a)");
}

std::string format_double(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

} // namespace

std::uint64_t parse_uint(std::string_view text, std::string_view what)
{
    if (text.empty())
        not_uint(text, what);
    int base = 10;
    std::string_view digits = text;
    std::uint64_t scale = 1;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        digits = text.substr(2);
    } else {
        switch (text.back()) {
        case 'k':
        case 'K':
            scale = std::uint64_t(1) << 10;
            break;
        case 'M':
            scale = std::uint64_t(1) << 20;
            break;
        case 'G':
            scale = std::uint64_t(1) << 30;
            break;
        default:
            break;
        }
        if (scale != 1)
            digits.remove_suffix(1);
    }
    // from_chars alone would accept a prefix ("12abc" -> 12) and, for base
    // 16, no sign; insisting on digits only rejects "+5", "-5" and " 5".
    const bool all_digits = !digits.empty() && std::all_of(digits.begin(), digits.end(), [base](char c) {
        return base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : (c >= '0' && c <= '9');
    });
    if (!all_digits)
        not_uint(text, what);
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && v > kMax / scale))
        throw ArgError(
            std::string(what) + ": " + quoted(text) + " is too large (at most " + std::to_string(kMax) + ")");
    if (ec != std::errc() || end != digits.data() + digits.size())
        not_uint(text, what);
    return v * scale;
}

std::string format_uint(std::uint64_t v)
{
    if (v == 0)
        return "0";
    if (v % (std::uint64_t(1) << 30) == 0)
        return std::to_string(v >> 30) + "G";
    if (v % (std::uint64_t(1) << 20) == 0)
        return std::to_string(v >> 20) + "M";
    if (v % (std::uint64_t(1) << 10) == 0)
        return std::to_string(v >> 10) + "k";
    return std::to_string(v);
}

ArgParser::ArgParser(std::string command)
    : command_(std::move(command))
{
}

ArgParser::Option& ArgParser::declare(std::string name, Type type, std::string metavar, std::string help)
{
    if (name.empty() || name.rfind("-", 0) == 0 || name == "help" || lookup(name))
        throw std::logic_error("option '" + name + "' declared twice or badly named");
    Option o;
    o.name = std::move(name);
    o.type = type;
    o.metavar = std::move(metavar);
    o.help = std::move(help);
    options_.push_back(std::move(o));
    return options_.back();
}

template <typename T>
void ArgParser::declare_ranged(std::string name, Type type, Range<T> Option::*range, Range<T> values,
    std::string def_text, std::string metavar, std::string help)
{
    // Written so that a NaN bound or default fails too.
    if (!(values.min <= values.max) || !(values.def >= values.min) || !(values.def <= values.max))
        throw std::logic_error("option '" + name + "': default outside its range");
    Option& o = declare(std::move(name), type, std::move(metavar), std::move(help));
    o.*range = values;
    o.def_text = std::move(def_text);
}

void ArgParser::add_uint(
    std::string name, std::uint64_t def, std::uint64_t min, std::uint64_t max, std::string metavar, std::string help)
{
    declare_ranged(std::move(name), Type::Uint, &Option::u, { min, max, def, def }, format_uint(def),
        std::move(metavar), std::move(help));
}

void ArgParser::add_double(std::string name, double def, double min, double max, std::string metavar, std::string help)
{
    declare_ranged(std::move(name), Type::Double, &Option::d, { min, max, def, def }, format_double(def),
        std::move(metavar), std::move(help));
}

void ArgParser::add_string(std::string name, std::string def, std::string metavar, std::string help)
{
    Option& o = declare(std::move(name), Type::String, std::move(metavar), std::move(help));
    o.def_text = def;
    o.sdef = o.sval = std::move(def);
}

void ArgParser::add_output(std::string name, std::string metavar, std::string help)
{
    add_string(std::move(name), "", std::move(metavar), std::move(help));
    options_.back().output = true;
}

void ArgParser::add_flag(std::string name, std::string help)
{
    declare(std::move(name), Type::Flag, "", std::move(help));
}

void ArgParser::add_list(std::string name, std::string metavar, std::string help)
{
    declare(std::move(name), Type::List, std::move(metavar), std::move(help));
}

ArgParser::Option* ArgParser::lookup(std::string_view name)
{
    for (auto& o : options_)
        if (o.name == name)
            return &o;
    return nullptr;
}

const ArgParser::Option& ArgParser::find(std::string_view name, Type type) const
{
    for (const auto& o : options_)
        if (o.name == name) {
            if (o.type != type)
                throw std::logic_error("option '--" + o.name + "' read as the wrong type");
            return o;
        }
    throw std::logic_error("option '--" + std::string(name) + "' was never declared");
}

void ArgParser::assign(Option& o, std::string_view value)
{
    const std::string what = "--" + o.name;
    auto out_of_range = [&](const std::string& min, const std::string& max) {
        return ArgError(what + ": " + quoted(value) + " is out of range (allowed " + min + ".." + max + ")");
    };
    switch (o.type) {
    case Type::Uint: {
        const std::uint64_t v = parse_uint(value, what);
        if (v < o.u.min || v > o.u.max)
            throw out_of_range(format_uint(o.u.min), format_uint(o.u.max));
        o.u.val = v;
        break;
    }
    case Type::Double: {
        double v = 0;
        const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
        if (ec == std::errc::result_out_of_range)
            throw out_of_range(format_double(o.d.min), format_double(o.d.max));
        if (ec != std::errc() || end != value.data() + value.size() || !std::isfinite(v))
            throw ArgError(what + ": " + quoted(value) + " is not a number (forms: 2, 0.5, 1e-3)");
        if (v < o.d.min || v > o.d.max)
            throw out_of_range(format_double(o.d.min), format_double(o.d.max));
        o.d.val = v;
        break;
    }
    case Type::String:
        o.sval = std::string(value);
        break;
    case Type::Flag:
        o.flag = true;
        break;
    case Type::List:
        o.list.emplace_back(value);
        break;
    }
    o.given = true;
}

void ArgParser::parse(const std::vector<std::string>& args)
{
    help_ = false;
    for (auto& o : options_) {
        o.u.val = o.u.def;
        o.d.val = o.d.def;
        o.sval = o.sdef;
        o.flag = false;
        o.list.clear();
        o.given = false;
    }
    operands_.clear();
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--help" || a == "-h") {
            help_ = true;
            continue;
        }
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            if (a.size() >= 2 && a[0] == '-' && a != "--")
                throw ArgError("unknown option " + quoted(a));
            if (operands_allowed_ && a != "--") {
                operands_.push_back(a);
                continue;
            }
            throw ArgError("unexpected argument " + quoted(a));
        }
        const std::size_t eq = a.find('=');
        const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        Option* o = lookup(name);
        if (!o)
            throw ArgError("unknown option '--" + name + "'");
        if (o->type == Type::Flag) {
            if (eq != std::string::npos)
                throw ArgError("--" + name + " takes no value");
            assign(*o, {});
            continue;
        }
        std::string_view value;
        if (eq != std::string::npos) {
            value = std::string_view(a).substr(eq + 1);
        } else if (i + 1 < args.size() && args[i + 1].compare(0, 2, "--") != 0) {
            // A following word that starts with "--" is the next option, not
            // this one's value: `--csv --pages 4k` forgot the file name.
            value = args[++i];
        }
        if (value.empty())
            throw ArgError("--" + name + " needs a value (" + o->metavar + ")");
        assign(*o, value);
    }
    if (help_)
        return;
    // "-" names standard output, as it does for every Unix tool; one output
    // at most can be it, or the two would arrive mixed.
    const Option* to_stdout = nullptr;
    for (const auto& o : options_) {
        if (!o.output || !o.given)
            continue;
        if (o.sval != kStdoutPath) {
            check_writable_path(o.sval, "--" + o.name);
        } else if (to_stdout) {
            throw ArgError("--" + to_stdout->name + " and --" + o.name + ": only one output can be '-' (stdout)");
        } else {
            to_stdout = &o;
        }
    }
}

void ArgParser::describe(std::string synopsis, std::string description, std::string epilogue)
{
    synopsis_ = std::move(synopsis);
    description_ = std::move(description);
    epilogue_ = std::move(epilogue);
}

std::string ArgParser::help() const
{
    std::string s = "usage: " + std::string(kProgram) + ' ' + command_ + ' ' + synopsis_ + "\n\n";
    if (!description_.empty()) {
        // The description's own lines, each wrapped if it is too long.
        std::size_t at = 0;
        while (at < description_.size()) {
            const std::size_t end = std::min(description_.find('\n', at), description_.size());
            const std::string_view line = std::string_view(description_).substr(at, end - at);
            s += (line.size() > kLineWidth ? wrap_words("", line, 0) : std::string(line)) + "\n";
            at = end + 1;
        }
        s += "\n";
    }
    s += "options:\n" + usage();
    if (!epilogue_.empty())
        s += '\n' + epilogue_ + (epilogue_.ends_with('\n') ? "" : "\n");
    return s;
}

std::optional<int> ArgParser::parse_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
    const std::function<void(const ArgParser&)>& check)
{
    try {
        parse(args);
        if (help_) {
            out << help();
            return 0;
        }
        if (check)
            check(*this);
    } catch (const ArgError& e) {
        return report_arg_error(*this, e, err);
    }
    return std::nullopt;
}

bool ArgParser::given(std::string_view name) const
{
    for (const auto& o : options_)
        if (o.name == name)
            return o.given;
    throw std::logic_error("option '--" + std::string(name) + "' was never declared");
}

std::uint64_t ArgParser::get_uint(std::string_view name) const
{
    return find(name, Type::Uint).u.val;
}
double ArgParser::get_double(std::string_view name) const
{
    return find(name, Type::Double).d.val;
}
const std::string& ArgParser::get_string(std::string_view name) const
{
    return find(name, Type::String).sval;
}
bool ArgParser::get_flag(std::string_view name) const
{
    return find(name, Type::Flag).flag;
}
const std::vector<std::string>& ArgParser::get_list(std::string_view name) const
{
    return find(name, Type::List).list;
}

std::string ArgParser::usage() const
{
    std::vector<std::pair<std::string, std::string>> lines;
    for (const auto& o : options_) {
        std::string left = "--" + o.name + (o.metavar.empty() ? "" : " " + o.metavar);
        std::string right = o.help;
        std::string extra;
        if (o.type == Type::Uint && o.u.max == kMax)
            extra = "default " + o.def_text + "; at least " + format_uint(o.u.min);
        else if (o.type == Type::Uint)
            extra = "default " + o.def_text + "; " + format_uint(o.u.min) + ".." + format_uint(o.u.max);
        else if (o.type == Type::Double)
            extra = "default " + o.def_text + "; " + format_double(o.d.min) + ".." + format_double(o.d.max);
        else if (o.type == Type::String && !o.def_text.empty())
            extra = "default " + o.def_text;
        else if (o.type == Type::List)
            extra = "repeatable";
        if (!extra.empty())
            right += " (" + extra + ")";
        lines.emplace_back(std::move(left), std::move(right));
    }
    lines.emplace_back("-h, --help", "show this help");
    std::size_t width = 0;
    for (const auto& l : lines)
        width = std::max(width, l.first.size());
    // The help from column width + 4, wrapped at word boundaries.
    std::string s;
    for (const auto& [left, right] : lines)
        s += wrap_words("  " + left + std::string(width - left.size() + 2, ' '), right, width + 4) + "\n";
    return s;
}

void check_writable_path(const std::string& path, std::string_view what)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw ArgError(std::string(what) + ": " + quoted(path) + " is a directory");
    const std::size_t slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw ArgError(std::string(what) + ": cannot create " + quoted(path) + ": " + std::strerror(errno));
}

int report_arg_error(const ArgParser& parser, const ArgError& error, std::ostream& err)
{
    err << kProgram << ' ' << parser.command() << ": " << error.what() << '\n'
        << "Try '" << kProgram << ' ' << parser.command() << " --help' for the options.\n";
    return 2;
}

} // namespace pcl
