// k2_real_graphs.c: the list of real graphs of the data folder, and how each is read.
// SPDX-License-Identifier: Apache-2.0
#include "k2_real_graphs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define AUTO K2_FORMAT_AUTO
#define BV K2_FORMAT_BVGRAPH

const k2_real_graph k2_real_graph_list[] = {
    // SNAP (text edge lists, LightGraphs .jlg.gz)
    {"wiki-Vote", "snap-wiki-Vote/wiki-Vote.txt", AUTO, false},
    {"p2p-Gnutella05", "snap-p2p-Gnutella/p2p-Gnutella05.txt", AUTO, false},
    {"p2p-Gnutella06", "snap-p2p-Gnutella/p2p-Gnutella06.txt", AUTO, false},
    {"ca-CondMat", "snap-ca-CondMat/CA-CondMat.txt", AUTO, false},
    {"email-Enron", "snap-email-Enron/email-Enron.txt.gz", AUTO, false},
    {"email-Eu-core", "snap-email-Eu-core/email-Eu-core.txt", AUTO, false},
    {"ca-GrQc", "snap-ca-GrQc-lcc/ca-GrQc-lcc.txt", AUTO, false},
    {"ca-HepTh", "snap-ca-HepTh-lcc/ca-HepTh-lcc.txt", AUTO, false},
    {"ca-HepPh", "snap-ca-HepPh-lcc/ca-HepPh-lcc.txt", AUTO, false},
    {"cit-HepPh", "snap-cit-HepPh/cit-HepPh.jlg.gz", AUTO, false},
    {"cit-HepTh", "snap-cit-HepTh/cit-HepTh.jlg.gz", AUTO, false},
    {"soc-Slashdot0902", "snap-soc-Slashdot0902/soc-Slashdot0902-directed.jlg.gz", AUTO, false},
    {"ego-Twitter", "snap-ego-Twitter/ego-twitter-undirected.jlg.gz", AUTO, false},
    {"ego-Facebook", "snap-ego-Facebook/facebook-combined.jlg.gz", AUTO, false},
    {"as-caida", "snap-as-caida/as-caida20071105.jlg.gz", AUTO, false},
    {"ca-AstroPh", "snap-ca-AstroPh-cc1/ca-AstroPh-cc1.jlg.gz", AUTO, false},
    // NetworKit (edge list, METIS)
    {"MIT8", "networkit-misc/MIT8.edgelist", AUTO, false},
    {"power", "networkit-misc/power.graph", AUTO, false},
    {"PGPgiantcompo", "networkit-misc/PGPgiantcompo.graph", AUTO, false},
    {"polblogs", "networkit-misc/polblogs.graph", AUTO, false},
    {"astro-ph", "networkit-misc/astro-ph.graph", AUTO, false},
    // OpenStreetMap road network: a Matrix Market body without its header (1-based)
    {"luxembourg_osm", "luxembourg_osm/luxembourg_osm.edges", K2_FORMAT_EDGE_LIST, true},
    // LDBC Graphalytics examples
    {"ldbc-directed", "ldbc-graphalytics-examples/example-directed.e", AUTO, false},
    {"ldbc-undirected", "ldbc-graphalytics-examples/example-undirected.e", AUTO, false},
    // LAGraph's Matrix Market files that are real matrices (SuiteSparse collection)
    {"karate", "lagraph/karate.mtx", AUTO, false},
    {"west0067", "lagraph/west0067.mtx", AUTO, false},
    {"lp_afiro", "lagraph/lp_afiro.mtx", AUTO, false},
    {"bucky", "lagraph/bucky.mtx", AUTO, false},
    {"olm1000", "lagraph/olm1000.mtx", AUTO, false},
    {"jagmesh7", "lagraph/jagmesh7.mtx", AUTO, false},
    {"bcsstk13", "lagraph/bcsstk13.mtx", AUTO, false},
    {"cryg2500", "lagraph/cryg2500.mtx", AUTO, false},
    {"zenios", "lagraph/zenios.mtx", AUTO, false},
    {"pushpull", "lagraph/pushpull.mtx", AUTO, false},
    // LAW and other BVGraph crawls
    {"harvard500", "harvard500/harvard500", BV, false},
    {"wb-cs.stanford", "wb-cs.stanford/wb-cs.stanford", BV, false},
    {"swh-example", "swh-example/example", BV, false},
    {"uk-2007-05@100000", "uk-2007-05@100000/uk-2007-05@100000", BV, false},
    {"cnr-2000", "cnr-2000/cnr-2000", BV, false},
};
const size_t k2_real_graph_count = sizeof k2_real_graph_list / sizeof k2_real_graph_list[0];

const char *k2_real_graph_dir(const char *fallback) {
  const char *dir = getenv("K2GRB_DATA_DIR");
  return dir != NULL && dir[0] != '\0' ? dir : fallback;
}

GrB_Info k2_real_graph_read(K2_Edges *E, const char *dir, const k2_real_graph *g) {
  char path[4096];
  struct stat st;
  // a BVGraph is found by its .graph file, everything else by its own name
  snprintf(path, sizeof path, "%s/%s%s", dir, g->path, g->format == BV ? ".graph" : "");
  if (stat(path, &st) != 0) return GrB_NO_VALUE;
  snprintf(path, sizeof path, "%s/%s", dir, g->path);
  K2_ReadOptions opt;
  K2_ReadOptions_default(&opt);
  opt.format = g->format;
  opt.one_based = g->one_based;
  return g->format == BV ? K2_Edges_readBVGraph(E, path, &opt) : K2_Edges_read(E, path, &opt);
}
