# gnuplot docs/data/bench-gpu-h200.gp: time against device working set, both relative to cuSPARSE
# (right products, FP32), after the paper's Figure 5. Input: docs/data/bench-gpu-h200-all.csv
# (the current figure of every graph; its last column says which run each row comes from).
# Graphs of over 10^6 rows are labelled; the unlabelled points are the small real graphs of the
# data folder, whose CSR fits in the H200's L2 (they measure latency).
set terminal svg size 760,520 font "sans,11"
set output "docs/bench-gpu-h200.svg"
set datafile separator ","
set logscale xy
set xlabel "device working set / cuSPARSE's"
set ylabel "time per right product / cuSPARSE's"
set grid
set key top left
set xrange [0.1:10]
set yrange [0.1:30]
big(n) = n > 1e6
plot "docs/data/bench-gpu-h200-all.csv" every ::1 using ($10/$12):($17/$19) with points pt 7 ps 1.0 title "k² (tree only)", \
     "" every ::1 using ($11/$12):($18/$19) with points pt 5 ps 1.0 title "k²+F", \
     "" every ::1 using ($35/$12):($37/$19) with points pt 13 ps 1.0 title "k²+R (row blocks)", \
     "" every ::1 using ($13/$12):($20/$19) with points pt 9 ps 1.0 title "bCSR", \
     "" every ::1 using ($10/$12):($17/$19):(big($2) ? stringcolumn(1) : "") with labels offset 0,0.8 font ",8" notitle, \
     1 with lines lc "gray" notitle
