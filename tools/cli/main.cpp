// tools/cli/main.cpp: the cuckoo command-line tool (docs/cli.md): build a filter from a key file, query it,
// inspect it, add or delete keys, merge filters built apart.
//
// Exit status: 0 success; 1 from query when no key may be present (or, with --all, not every key);
// 2 any error, with one message on stderr ("cuckoo: COMMAND: ...").
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "args.h"
#include "commands.h"

namespace {

using cuckoo_cli::Command;
using cuckoo_cli::commands;

void usage(std::FILE* out) {
  std::fputs("usage: cuckoo COMMAND [OPTIONS] ...\n\n", out);
  for (const Command& c : commands()) std::fprintf(out, "  cuckoo %s\n", c.synopsis);
  std::fputs(
      "\nKeys are lines of the input files or standard input: a trailing \\r is removed, empty lines are\n"
      "skipped. query, add and delete take keys from their arguments, or from standard input if none.\n"
      "Exit status: 0 ok; query: 1 if no key may be present (--all: if not all); 2 error.\n"
      "Reference: docs/cli.md\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0 ||
      std::strcmp(argv[1], "help") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string name = argv[1];
  const Command* command = nullptr;
  for (const Command& c : commands())
    if (name == c.name) command = &c;
  if (command == nullptr) {
    std::fprintf(stderr, "cuckoo: unknown command '%s'\n", name.c_str());
    usage(stderr);
    return 2;
  }
  try {
    const std::vector<std::string> rest(argv + 2, argv + argc);
    return command->run(cuckoo_cli::parse_args(rest, command->options));
  } catch (const cuckoo_cli::UsageError& e) {
    std::fprintf(stderr, "cuckoo: %s: %s\nusage: cuckoo %s\n", command->name, e.what(), command->synopsis);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "cuckoo: %s: out of memory\n", command->name);
  } catch (const std::exception& e) {
    std::string m = e.what();
    if (m.rfind("cuckoo: ", 0) == 0) m = m.substr(8);
    std::fprintf(stderr, "cuckoo: %s: %s\n", command->name, m.c_str());
  }
  return 2;
}
