// k2grb.c: the command-line tool. Subcommands dispatch to k2grb_<name>() in tools/.
// SPDX-License-Identifier: Apache-2.0
#include <stdio.h>
#include <string.h>

#include "k2grb_cli.h"

static const k2_cli_command k2_cli_commands[] = {
    {"demo", k2grb_demo, "R-MAT graph -> tree; BFS, PageRank, products checked against SuiteSparse"},
    {"convert", k2grb_convert, "convert a graph file (any format) to .k2, Matrix Market or an edge list"},
    {"info", k2grb_info, "nodes, edges, levels, bits per edge, bytes by part against a CSR"},
    {"bfs", k2grb_bfs, "breadth-first search from one source (levels or parents)"},
    {"msbfs", k2grb_msbfs, "hop distances from up to 256 sources at once"},
    {"pagerank", k2grb_pagerank, "PageRank (LAGraph, GAP or LDBC Graphalytics model)"},
    {"sssp", k2grb_sssp, "hop-count shortest paths from one source (min-plus Bellman-Ford)"},
    {"cc", k2grb_cc, "weakly connected components"},
    {"bench", k2grb_bench, "product timings: tree against SuiteSparse on a CSR"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: k2grb COMMAND [ARGS]   (k2grb COMMAND --help for details)\ncommands:\n");
  for (size_t i = 0; i < sizeof k2_cli_commands / sizeof k2_cli_commands[0]; i++)
    fprintf(f, "  %-10s %s\n", k2_cli_commands[i].name, k2_cli_commands[i].summary);
}

int main(int argc, char **argv) {
  if (argc < 2) return k2grb_demo(argc - 1, argv + 1);  // the main job
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof k2_cli_commands / sizeof k2_cli_commands[0]; i++)
    if (strcmp(argv[1], k2_cli_commands[i].name) == 0) return k2_cli_commands[i].run(argc - 2, argv + 2);
  fprintf(stderr, "k2grb: unknown command '%s' (k2grb --help lists them)\n", argv[1]);
  return 2;
}
