// k2grb.c: the command-line tool. Subcommands dispatch to k2grb_<name>() in tools/.
// SPDX-License-Identifier: Apache-2.0
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "k2grb_cli.h"

static const k2_cli_command k2_cli_commands[] = {
    {"demo", k2grb_demo, "R-MAT and web-like graphs -> trees; products, BFS, PageRank checked against SuiteSparse"},
    {"convert", k2grb_convert, "convert a graph file (any format) to .k2, Matrix Market or an edge list"},
    {"info", k2grb_info, "nodes, edges, levels, bits per edge, bytes by part against a CSR"},
    {"bfs", k2grb_bfs, "breadth-first search from one source (levels or parents)"},
    {"msbfs", k2grb_msbfs, "hop distances from up to 256 sources at once"},
    {"pagerank", k2grb_pagerank, "PageRank (LAGraph, GAP or LDBC Graphalytics model)"},
    {"sssp", k2grb_sssp, "hop-count shortest paths from one source (min-plus Bellman-Ford)"},
    {"cc", k2grb_cc, "weakly connected components"},
    {"wcc", k2grb_cc, "the same as cc"},
    {"bench", k2grb_bench, "product timings: tree against SuiteSparse on a CSR"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: k2grb COMMAND [ARGS]   (k2grb COMMAND --help for details)\ncommands:\n");
  for (size_t i = 0; i < sizeof k2_cli_commands / sizeof k2_cli_commands[0]; i++)
    fprintf(f, "  %-10s %s\n", k2_cli_commands[i].name, k2_cli_commands[i].summary);
}

// Interrupted or terminated: remove the temporaries of unfinished writes (where the file system
// needed named ones; unnamed ones go with the process), then die of the signal as before.
static void on_fatal_signal(int sig) {
  K2_OutFile_removeTemporaries();
  raise(sig);  // the handler was reset (SA_RESETHAND): the default action ends the process
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) {
    int v[3] = {0}, g[3] = {0};
    K2_version(&v[0], &v[1], &v[2]);
    // GraphBLAS reports its version only once initialised
    if (K2_init() == GrB_SUCCESS) {
      GxB_Global_Option_get(GxB_LIBRARY_VERSION, g);
      K2_finalize();
    }
    printf("k2grb %d.%d.%d\nSuiteSparse:GraphBLAS %d.%d.%d\n", v[0], v[1], v[2], g[0], g[1], g[2]);
    return 0;
  }
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_fatal_signal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  const int fatal[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
    struct sigaction old;
    // a signal ignored by the parent (nohup, background jobs) stays ignored
    if (sigaction(fatal[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(fatal[i], &sa, NULL);
  }
  signal(SIGXFSZ, SIG_IGN);  // over the file size limit: a write fails (EFBIG) and is reported
  k2_cli_set_argv(argc, argv);  // for the `argv` key of the reports, before getopt reorders it
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
