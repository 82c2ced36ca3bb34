// k2grb_cli.h: the subcommands of the k2grb tool.
// SPDX-License-Identifier: Apache-2.0
#ifndef K2GRB_CLI_H
#define K2GRB_CLI_H

typedef struct {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} k2_cli_command;

int k2grb_demo(int argc, char **argv);

#endif
