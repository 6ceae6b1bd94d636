// tools/cli/args.cpp: see args.h.
#include "args.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace cuckoo_cli {

namespace {

const OptionSpec* find_long(const std::vector<OptionSpec>& spec, const std::string& name) {
  for (const OptionSpec& o : spec)
    if (name == o.name) return &o;
  return nullptr;
}

const OptionSpec* find_short(const std::vector<OptionSpec>& spec, char c) {
  for (const OptionSpec& o : spec)
    if (o.short_name == c) return &o;
  return nullptr;
}

}  // namespace

std::optional<std::string> Args::value(const std::string& name) const {
  const auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

std::optional<uint64_t> Args::integer(const std::string& name, uint64_t max, const char* range) const {
  const std::optional<std::string> text = value(name);
  if (!text) return std::nullopt;
  const std::string& s = *text;
  const bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  const size_t digits_from = hex ? 2 : 0;
  bool ok = s.size() > digits_from;
  for (size_t i = digits_from; ok && i < s.size(); ++i) {
    const char c = s[i];
    ok = (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
  }
  errno = 0;
  const unsigned long long v = ok ? std::strtoull(s.c_str() + digits_from, nullptr, hex ? 16 : 10) : 0;
  if (!ok || errno == ERANGE || v > max) {
    throw UsageError("--" + name + " must be an integer in " + range + ", decimal or 0x hex (got '" + s + "')");
  }
  return static_cast<uint64_t>(v);
}

std::optional<uint64_t> Args::u64(const std::string& name) const { return integer(name, UINT64_MAX, "0..2^64-1"); }

std::optional<uint32_t> Args::u32(const std::string& name) const {
  const std::optional<uint64_t> v = integer(name, UINT32_MAX, "0..2^32-1");
  if (!v) return std::nullopt;
  return static_cast<uint32_t>(*v);
}

std::optional<double> Args::number(const std::string& name) const {
  const std::optional<std::string> text = value(name);
  if (!text) return std::nullopt;
  const char* begin = text->c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(begin, &end);
  // Plain decimal notation only (as JS's Number() reads it): no hex floats, inf or nan.
  bool plain = !text->empty();
  for (char c : *text) plain = plain && ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+');
  if (!plain || end == begin || *end != '\0' || errno == ERANGE) {
    throw UsageError("--" + name + " must be a number (got '" + *text + "')");
  }
  return v;
}

Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec) {
  Args args;
  bool options_done = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (options_done || a.size() < 2 || a[0] != '-') {
      args.positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    const OptionSpec* o = nullptr;
    std::optional<std::string> inline_value;
    std::string shown = a;
    if (a[1] == '-') {
      const size_t eq = a.find('=');
      const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) inline_value = a.substr(eq + 1);
      o = find_long(spec, name);
      shown = "--" + name;
    } else if (a.size() == 2) {
      o = find_short(spec, a[1]);
    }
    if (o == nullptr) throw UsageError("unknown option " + shown);
    if (!o->takes_value) {
      if (inline_value) throw UsageError("--" + std::string(o->name) + " takes no value");
      args.flags.insert(o->name);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argv.size()) throw UsageError("--" + std::string(o->name) + " needs a value");
      inline_value = argv[++i];
    }
    args.values[o->name] = *inline_value;
  }
  return args;
}

}  // namespace cuckoo_cli
