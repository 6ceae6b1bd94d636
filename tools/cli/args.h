// tools/cli/args.h: command-line parsing for the cuckoo tool (the same grammar as js/cli/args.js).
//
// Options: --name value, --name=value, -x value; flags: --name, -x. "--" ends the options; "-" alone is a
// positional argument (standard input). Unknown options and missing values are UsageErrors.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuckoo_cli {

// Bad usage (unknown option, bad value): the message, then exit status 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct OptionSpec {
  const char* name;  // long name, without "--"
  char short_name;   // 0 if none
  bool takes_value;
};

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::set<std::string> flags;

  bool flag(const std::string& name) const { return flags.count(name) != 0; }
  std::optional<std::string> value(const std::string& name) const;
  // Parsed values; each throws UsageError naming the option on a malformed or out-of-range value.
  std::optional<uint64_t> u64(const std::string& name) const;   // decimal or 0x hex
  std::optional<uint32_t> u32(const std::string& name) const;   // decimal or 0x hex
  std::optional<double> number(const std::string& name) const;  // a decimal number

 private:
  std::optional<uint64_t> integer(const std::string& name, uint64_t max, const char* range) const;
};

Args parse_args(const std::vector<std::string>& argv, const std::vector<OptionSpec>& spec);

}  // namespace cuckoo_cli
