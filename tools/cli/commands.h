// tools/cli/commands.h: the subcommands of the cuckoo tool (docs/cli.md).
//
// Each returns the exit status (0 success; query: 1 when no key matched) or throws: UsageError for bad
// usage, std::runtime_error / std::invalid_argument / std::length_error for anything else; main() prints
// the message and exits with status 2. A command that writes a filter writes it only once everything
// succeeded, atomically (atomic_file.h), so an error leaves no partial or damaged file.
#pragma once

#include <string>
#include <vector>

#include "args.h"

namespace cuckoo_cli {

struct Command {
  const char* name;
  const char* synopsis;
  std::vector<OptionSpec> options;
  int (*run)(const Args& args);
};

const std::vector<Command>& commands();

}  // namespace cuckoo_cli
